"""The one way copilot-eval writes a file: all at once, durably, never half-written.

Data goes to a temporary file in the target's folder, is flushed and fsync'd, and only then
renamed over the target, so a reader (or a crash) sees the old file or the new one, never a mix.
Registered secrets are replaced by their markers on the way (see ``copilot_eval.redaction``),
so no file the tool writes holds one. Text is made valid UTF-8 on the way (lone surrogates, which
an agent's answer can carry, become U+FFFD: see ``copilot_eval.untrusted.utf8``), so one
character never costs a run its files. A leaf module: it imports nothing of copilot_eval but the
redactor and the sanitisers (leaves themselves), so every layer, the pure ones included, may write through it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from copilot_eval.redaction import redact_bytes
from copilot_eval.untrusted.utf8 import utf8_text


def write_bytes_atomically(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` (parents created) through a fsync'd temporary file and a rename.

    Registered secrets in the (UTF-8) data are replaced by their markers first.
    """
    data = redact_bytes(data)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, target)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    return target


def write_text_atomically(path: str | Path, text: str) -> Path:
    """Write ``text`` as UTF-8 to ``path`` atomically (see :func:`write_bytes_atomically`); lone surrogates become U+FFFD."""
    return write_bytes_atomically(path, utf8_text(text).encode("utf-8"))


__all__ = ["write_bytes_atomically", "write_text_atomically"]
