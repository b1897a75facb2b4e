"""Write a file all at once, so a failure never leaves a half-written file behind.

It is also where run files pass the redactor: a registered secret never reaches the disk.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from copilot_eval.redaction import redact_bytes


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename.

    Registered secrets in the (UTF-8) text are replaced by their markers on the way.
    """
    data = redact_bytes(data)
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


__all__ = ["write_bytes_atomically"]
