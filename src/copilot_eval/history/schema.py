"""The history's schema version: brought up to date by the shipped Alembic migrations, run in code.

Opening a database for writing creates it (an empty database is migrated to the newest
revision) and upgrades an older one. A database at the newest revision costs one query and no
Alembic import. A database that a newer copilot-eval migrated is refused with a message saying so,
rather than written to with a schema this version does not know.
"""

from __future__ import annotations

import threading
from typing import Any

# Alembic and SQLAlchemy are imported inside the functions that use them: a database already at the newest revision
# needs no Alembic at all.

HEAD_REVISION = "0007"
"""The newest migration in ``migrations/versions`` (a test keeps the two in step)."""

SCRIPT_LOCATION = "copilot_eval.history:migrations"
"""Where Alembic finds the migrations: a folder shipped inside the package."""


# Alembic's command runs through module-level proxies (alembic.context): one migration at a time per process.
_MIGRATING = threading.Lock()


class HistorySchemaError(RuntimeError):
    """The database's schema cannot be used by this version of copilot-eval; the message says why."""


def alembic_config(connection: Any = None) -> Any:
    """An Alembic Config for the shipped migrations, with ``connection`` handed to ``env.py``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.attributes["connection"] = connection
    return config


def current_revision(connection: Any) -> str | None:
    """The revision the database is at, or None for a database copilot-eval never migrated."""
    from sqlalchemy import inspect, text

    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Any) -> None:
    """Migrate the database behind ``engine`` to :data:`HEAD_REVISION` (no-op when it is there)."""
    with engine.connect() as connection:
        revision = current_revision(connection)
    if revision == HEAD_REVISION:
        return
    from alembic import command
    from alembic.script import ScriptDirectory

    config = alembic_config()
    known = {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}
    if revision is not None and revision not in known:
        raise HistorySchemaError(
            f"the history database is at schema revision {revision}, newer than this copilot-eval knows "
            f"({HEAD_REVISION}); upgrade copilot-eval"
        )
    try:
        with _MIGRATING, engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except Exception:
        # Two processes creating the same new database: the one that lost the race finds it done.
        with engine.connect() as connection:
            if current_revision(connection) != HEAD_REVISION:
                raise


def check_readable(engine: Any) -> None:
    """Refuse a database without the history's tables, or migrated by a newer copilot-eval."""
    with engine.connect() as connection:
        revision = current_revision(connection)
    if revision is None:
        raise HistorySchemaError("not a copilot-eval history database (no schema revision recorded)")
    if revision != HEAD_REVISION:
        upgrade(engine)  # an older schema is upgraded; a newer one is refused there


__all__ = [
    "HEAD_REVISION",
    "SCRIPT_LOCATION",
    "HistorySchemaError",
    "alembic_config",
    "check_readable",
    "current_revision",
    "upgrade",
]
