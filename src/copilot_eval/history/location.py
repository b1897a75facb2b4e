"""Where the history lives: ``--history URL``, env ``COPILOT_EVAL_HISTORY``, or beside the project.

One function decides it for every entry point (``copilot-eval run``, ``history``, ``serve``, the
pytest plugin). The default is a SQLite file, ``.copilot-eval/history.db`` in the project's
folder: the nearest folder above the working directory that holds ``.copilot-eval``, ``.git``
or ``pyproject.toml`` (pytest passes its rootdir instead). A team points everyone at one
PostgreSQL database by URL. ``off`` switches recording off.

A URL may hold a password: it is registered with the redactor at once, and the database is named
everywhere by :attr:`HistoryLocation.display`, which hides it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from copilot_eval.redaction import register_secret

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).

HISTORY_ENV = "COPILOT_EVAL_HISTORY"
"""The environment variable naming the history database (a URL, a SQLite file path, or ``off``)."""

DEFAULT_HISTORY_FILE = Path(".copilot-eval") / "history.db"
"""The default database, relative to the project's folder."""

OFF = "off"
"""The value of ``--history`` / ``COPILOT_EVAL_HISTORY`` that switches recording off."""

_PROJECT_MARKERS = (".copilot-eval", ".git", "pyproject.toml")


class HistoryLocationError(ValueError):
    """A history URL that cannot be used; the message names the option or variable and the fix."""


@dataclass(frozen=True)
class HistoryLocation:
    """A resolved history database: the SQLAlchemy URL to connect with and a name safe to print."""

    url: str
    display: str
    sqlite_path: Path | None = None  # the file, for SQLite; None for a server database
    default: bool = False  # the project's own .copilot-eval/history.db, whose folder the tool makes

    @property
    def exists(self) -> bool:
        """Whether there is anything to read (a server database always counts as existing)."""
        return self.sqlite_path is None or self.sqlite_path.is_file()


def project_folder(start: Path | None = None) -> Path:
    """The nearest folder from ``start`` (default: the working directory) upwards that looks like a project."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if any((folder / marker).exists() for marker in _PROJECT_MARKERS):
            return folder
    return here


def _server_url(raw: str, origin: str) -> HistoryLocation:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(raw)
    except (ArgumentError, ValueError):
        raise HistoryLocationError(
            f"{origin} {raw!r} is not a database URL; give sqlite:///PATH, postgresql://USER@HOST/DB or a file path"
        ) from None
    if url.password:
        register_secret(str(url.password), f"{HISTORY_ENV} password")
    # A plain postgresql:// URL would make SQLAlchemy look for psycopg2; this project uses psycopg 3.
    if url.drivername in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+psycopg")
    if url.drivername.startswith("sqlite"):
        database = url.database
        if not database or database == ":memory:":
            raise HistoryLocationError(f"{origin}: an in-memory SQLite database would forget every run; name a file")
        path = Path(database).expanduser().resolve()
        return HistoryLocation(f"sqlite:///{path}", str(path), path)
    return HistoryLocation(url.render_as_string(hide_password=False), url.render_as_string(hide_password=True))


def resolve_history(
    explicit: str | None = None, *, option: str = "--history", project_dir: Path | None = None
) -> HistoryLocation | None:
    """The history database to use, or None when recording is off.

    ``explicit`` (an option's value) wins over ``COPILOT_EVAL_HISTORY``, which wins over the
    default file in ``project_dir`` (or the project found from the working directory). Either may
    be ``off``, a URL (``postgresql://`` uses psycopg 3) or a path to a SQLite file.
    """
    raw, origin = explicit, option
    if raw is None or not raw.strip():
        raw, origin = os.environ.get(HISTORY_ENV), HISTORY_ENV
    if raw is None or not raw.strip():
        path = (project_dir or project_folder()) / DEFAULT_HISTORY_FILE
        return HistoryLocation(f"sqlite:///{path.resolve()}", str(path.resolve()), path.resolve(), default=True)
    raw = raw.strip()
    if raw.lower() == OFF:
        return None
    if "://" in raw:
        return _server_url(raw, origin)
    path = Path(raw).expanduser().resolve()
    return HistoryLocation(f"sqlite:///{path}", str(path), path)


__all__ = [
    "DEFAULT_HISTORY_FILE",
    "HISTORY_ENV",
    "OFF",
    "HistoryLocation",
    "HistoryLocationError",
    "project_folder",
    "resolve_history",
]
