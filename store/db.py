"""Engines and sessions from a database URL, tuned per database.

SQLite (the embedded runner) gets WAL so readers never block the writer, a busy timeout so
processes of one pool wait for the lock instead of failing, and enforced foreign keys.
PostgreSQL URLs are pointed at psycopg 3 whichever spelling was given.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

SQLITE_BUSY_TIMEOUT_MS = 30_000
POSTGRES_CONNECT_TIMEOUT_S = 10


def normalise_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` as psycopg 3 URLs; anything else unchanged."""
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
        event.listen(engine, "connect", _tune_sqlite)
        return engine
    # pre_ping: a worker idle overnight finds its pooled connections closed by the server.
    # connect_timeout: an unreachable server is an error in seconds (retried as an outage),
    # not a wait for TCP to give up, e.g. in a worker's main process recording a lost task.
    return create_engine(
        url, pool_pre_ping=True, connect_args={"connect_timeout": POSTGRES_CONNECT_TIMEOUT_S}
    )


def _tune_sqlite(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    # expire_on_commit=False: records stay readable after the transaction that wrote them.
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """A session whose work commits on success and rolls back on any exception."""
    with factory.begin() as session:
        yield session
