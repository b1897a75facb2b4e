"""A real PostgreSQL server for the history tests: initdb into a temporary folder, loopback only, stopped by PID.

It uses Debian's ``postgresql`` package (``.ci/run`` installs it; binaries under
``/usr/lib/postgresql/<version>/bin/``). PostgreSQL refuses to run as root, and the tests run as
root in CI: there the server runs as the ``postgres`` user the package creates, in a folder made
theirs. Durability is switched off (fsync, synchronous commit): the data is thrown away.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "postgres"


def find_binaries() -> Path | None:
    """The folder holding initdb and postgres: $COPILOT_EVAL_PG_BIN, the newest Debian version, or PATH."""
    configured = os.environ.get("COPILOT_EVAL_PG_BIN")
    if configured:
        return Path(configured)
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    for folder in reversed(versions):
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    found = shutil.which("initdb")
    return Path(found).resolve().parent if found else None


def why_not_available() -> str | None:
    """Why a server cannot be started here (the skip reason), or None when it can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg 3 is not installed (pip install -e '.[dev]' installs it)"
    if find_binaries() is None:
        return "PostgreSQL is not installed: apt-get install -y postgresql (.ci/run does), or set COPILOT_EVAL_PG_BIN"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(USER)
        except KeyError:
            return f"running as root and there is no {USER!r} user to run PostgreSQL as (it refuses root)"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    """One PostgreSQL server on 127.0.0.1; ``url(db)`` names a database on it."""

    def __init__(self) -> None:
        self.bin = find_binaries()
        assert self.bin is not None, why_not_available()
        self.folder = Path(tempfile.mkdtemp(prefix="copilot-eval-pg-"))
        self.port = _free_port()
        self._as_user: dict[str, object] = {}
        if os.geteuid() == 0:
            entry = pwd.getpwnam(USER)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
            # Root's own groups are dropped too: the server runs with the postgres user's rights only.
            self._as_user = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
        self.process: subprocess.Popen[bytes] | None = None
        self._log: object = None

    def start(self) -> PostgresServer:
        """initdb, start the server, wait until it accepts connections (at most 60 s)."""
        data = self.folder / "data"
        subprocess.run(
            [str(self.bin / "initdb"), "-D", str(data), "-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync"],
            check=True,
            capture_output=True,
            cwd=self.folder,
            **self._as_user,  # type: ignore[arg-type]
        )
        self.process = subprocess.Popen(
            [
                str(self.bin / "postgres"),
                "-D",
                str(data),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-k",
                str(self.folder),
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
            ],
            stdout=subprocess.DEVNULL,
            stderr=self._open_log(),
            cwd=self.folder,
            **self._as_user,  # type: ignore[arg-type]
        )
        self._wait_ready()
        return self

    def _open_log(self) -> object:
        self._log = open(self.folder / "server.log", "wb")  # noqa: SIM115 (the server writes it until it stops)
        return self._log

    def _wait_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"PostgreSQL exited: {(self.folder / 'server.log').read_text(errors='replace')}")
            try:
                with psycopg.connect(self.dsn("postgres"), connect_timeout=2):
                    return
            except psycopg.OperationalError:
                time.sleep(0.2)
        raise RuntimeError("PostgreSQL did not accept connections within 60 s")

    def dsn(self, database: str) -> str:
        """A libpq connection string for ``database``."""
        return f"host=127.0.0.1 port={self.port} user={USER} dbname={database}"

    def url(self, database: str) -> str:
        """The URL a user would give ``--history`` (plain postgresql://; copilot-eval picks psycopg 3)."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create an empty database and return its URL."""
        import psycopg

        with psycopg.connect(self.dsn("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Fast shutdown by the server's PID (SIGINT), a kill if it lingers, then remove the folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._log is not None:
            self._log.close()  # type: ignore[attr-defined]
        with contextlib.suppress(OSError):
            shutil.rmtree(self.folder)


__all__ = ["PostgresServer", "find_binaries", "why_not_available"]
