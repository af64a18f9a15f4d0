"""Alembic environment: the schema is store.models; the URL is the caller's or the settings'."""

from __future__ import annotations

from typing import Any

from alembic import context

from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine
from sudoku_batch.store.models import Base, UtcDateTime

config = context.config
target_metadata = Base.metadata


def database_url() -> str:
    # store.migrate.upgrade passes its URL in the config; the alembic command uses settings.
    return config.get_main_option("sqlalchemy.url") or Settings.from_env().database_url


def render_item(type_: str, obj: Any, autogen_context: Any) -> str | bool:
    # Migrations must not import store.models: render our UTC type as the column it makes.
    if type_ == "type" and isinstance(obj, UtcDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_migrations() -> None:
    engine = make_engine(database_url())
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            # Batch mode copies a table and drops the old one; with foreign keys enforced, the
            # drop would delete every row that references the table (ON DELETE CASCADE).
            # The pragma only takes effect outside a transaction, hence the commit.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            # SQLite cannot ALTER most things: Alembic copies the table instead.
            render_as_batch=connection.dialect.name == "sqlite",
            render_item=render_item,
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run against a database")
run_migrations()
