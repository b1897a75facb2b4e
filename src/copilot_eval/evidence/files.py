"""Writing evidence files: all at once (no reader sees half a file) and through the redactor."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from copilot_eval.redaction import redact


def write_text_atomically(path: str | Path, text: str) -> Path:
    """Write text through a temporary file and a rename, so readers never see half a file.

    Registered secrets (see :mod:`copilot_eval.redaction`) are replaced by their markers first.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(redact(text))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return target
