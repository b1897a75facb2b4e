"""The size bound of JSON files from elsewhere: a run folder's run.json, test-set.json and evidence.

JSON has no aliases, so what a file builds is proportional to its size; the bound is the size,
checked on disk before the file is read whole, and the nesting (Python's parser recurses: a
document of a million ``[`` ends in RecursionError, reported here as a refusal naming the file).
A refusal is a ``JsonRefused``, a ``ValueError``, which every reader already turns into a message
naming the file. The limit is far above any real file: a run of 1,000 cases has evidence files of
tens of kB each and a run.json of a few MB.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

#: The largest JSON file read from a run folder (256 MiB).
MAX_JSON_BYTES = 256 * 1024 * 1024


class JsonRefused(ValueError):
    """A JSON file this tool will not read: larger than ``MAX_JSON_BYTES`` or nested too deeply."""


def read_json_bytes(path: Path, *, max_bytes: int | None = None) -> bytes:
    """The bytes of the JSON file at ``path``, refused from its size on disk before it is read.

    The bound is ``max_bytes`` where a reader has a smaller one of its own, else ``MAX_JSON_BYTES``.
    """
    max_bytes = MAX_JSON_BYTES if max_bytes is None else max_bytes  # read at each call: tests lower the module's bound
    size = path.stat().st_size
    if size > max_bytes:
        raise JsonRefused(
            f"{path}: {size:,} bytes is more than the {max_bytes:,} bytes a JSON file may have here; not read"
        )
    return path.read_bytes()


def load_json_file(path: Path | str, *, max_bytes: int | None = None) -> Any:
    """The value of the JSON file at ``path`` (UTF-8), refused when too large (see ``read_json_bytes``) or nested too deeply."""
    path = Path(path)
    data = read_json_bytes(path, max_bytes=max_bytes)
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise JsonRefused(f"{path}: nested too deeply to read; not read") from None


def load_json_object(path: Path | str, *, max_bytes: int | None = None) -> dict[str, Any] | None:
    """The JSON object in the file at ``path``, or None: no such file, too large, not JSON or not an object.

    For readers to whom an unreadable file is one to pass over (a trend skips that run and names its folder).
    """
    try:
        value = load_json_file(path, max_bytes=max_bytes)
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


__all__ = ["MAX_JSON_BYTES", "JsonRefused", "load_json_file", "load_json_object", "read_json_bytes"]
