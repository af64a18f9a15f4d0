"""The migrations build the schema the models describe, on PostgreSQL and SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from store.db import make_engine
from store.migrate import check, upgrade
from store.models import Base

pytestmark = pytest.mark.services


def test_upgrade_head_on_a_fresh_postgres_database_leaves_no_drift(database_url: str) -> None:
    # The fixture ran `alembic upgrade head` on a database created for this run.
    check(database_url)
    engine = make_engine(database_url)
    try:
        tables = set(inspect(engine).get_table_names())
        assert set(Base.metadata.tables) <= tables
        with engine.connect() as connection:
            view = connection.execute(text("SELECT * FROM puzzle_results LIMIT 1"))
            assert {"source", "page_number", "status", "solution", "confidence"} <= set(view.keys())
    finally:
        engine.dispose()


def test_upgrade_head_on_sqlite_leaves_no_drift(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    upgrade(url)
    check(url)
