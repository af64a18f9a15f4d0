"""Engines and sessions from a database URL, tuned per database.

SQLite (the embedded runner) gets WAL so readers never block the writer, a busy timeout so
processes of one pool wait for the lock instead of failing, and enforced foreign keys.
PostgreSQL URLs are pointed at psycopg 3 whichever spelling was given.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event, exc
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

SQLITE_BUSY_TIMEOUT_MS = 30_000
POSTGRES_CONNECT_TIMEOUT_S = 10
# A pooled connection unused this long is pinged before it is handed out again.
PING_AFTER_IDLE_S = 30.0


def normalise_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` as psycopg 3 URLs; anything else unchanged."""
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def make_engine(
    url: str, *, ping_every_checkout: bool = True, wait_for_disk: bool = True
) -> Engine:
    """``ping_every_checkout`` False: ping a pooled PostgreSQL connection only when it sat
    idle (``_ping_when_idle``), for stage workers, which check one out for every step of every
    task. ``wait_for_disk`` False: PostgreSQL commits return before their WAL is flushed to
    disk (``synchronous_commit = off``: a database crash may lose the last few, but never
    leaves them half-done), for writes that are safe to lose (``workers.runtime``)."""
    url = normalise_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})
        event.listen(engine, "connect", _tune_sqlite)
        return engine
    # pre_ping: a worker idle overnight finds its pooled connections closed by the server.
    # connect_timeout: an unreachable server is an error in seconds (retried as an outage),
    # not a wait for TCP to give up, e.g. in a worker's main process recording a lost task.
    connect_args: dict[str, Any] = {"connect_timeout": POSTGRES_CONNECT_TIMEOUT_S}
    if not wait_for_disk:
        connect_args["options"] = "-c synchronous_commit=off"
    engine = create_engine(url, pool_pre_ping=ping_every_checkout, connect_args=connect_args)
    if not ping_every_checkout:
        _ping_when_idle(engine)
    return engine


def _ping_when_idle(engine: Engine) -> None:
    """Ping a pooled connection before reuse only if it sat idle for PING_AFTER_IDLE_S.

    An idle connection may have been closed by the server, so it is checked first (and
    replaced, as with ``pool_pre_ping``). A busy worker does not pay a round trip for every
    transaction: a connection that broke since its last use (the server restarted) fails its
    statement, the pool is invalidated, and the task retries as in any outage
    (``workers.stage``).
    """

    def note_checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info["checked_in_at"] = time.monotonic()

    def ping_if_idle(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        checked_in_at = record.info.get("checked_in_at")
        if checked_in_at is None or time.monotonic() - checked_in_at < PING_AFTER_IDLE_S:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            # The pool replaces this connection and tries again.
            raise exc.DisconnectionError() from error

    event.listen(engine.pool, "checkin", note_checkin)
    event.listen(engine.pool, "checkout", ping_if_idle)


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


@contextmanager
def autocommit(factory: sessionmaker[Session]) -> Iterator[Session]:
    """A session whose statements each commit on their own, with no BEGIN or COMMIT around
    them: for a single statement, or reads that need no snapshot in common (PostgreSQL's
    read committed gives each statement its own snapshot inside a transaction too)."""
    with factory() as session:
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        yield session
        session.commit()  # flushes any rows changed through the ORM
