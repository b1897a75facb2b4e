"""Fixtures of the history tests: a SQLite history in a temporary folder, and a real PostgreSQL server.

``history_url`` runs a test once per database: SQLite always, PostgreSQL against a server these
tests start (once per session, a fresh database per test); where PostgreSQL cannot be started the
PostgreSQL variant is skipped, saying why.
"""

from __future__ import annotations

import itertools

import pytest

from tests.history.postgres_server import PostgresServer, why_not_available

_names = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server on 127.0.0.1 for the whole session, stopped by its PID at the end."""
    reason = why_not_available()
    if reason is not None:
        pytest.skip(f"PostgreSQL tests skipped: {reason}")
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """The URL of a fresh, empty database on the test server."""
    return postgres_server.create_database(f"history_{next(_names)}")


@pytest.fixture(params=["sqlite", "postgresql"])
def history_url(request, tmp_path) -> str:
    """A history database URL of each kind: SQLite in tmp_path, then PostgreSQL on the test server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'history.db'}"
    return request.getfixturevalue("postgres_url")
