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


def test_upgrading_sqlite_keeps_the_rows_under_a_copied_table(tmp_path: Path) -> None:
    # SQLite alters puzzles by copying it; the cells that reference it must survive that.
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    upgrade(url, "0001")
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            for statement in (
                "INSERT INTO batches (id, created_at) VALUES (1, '2026-11-21')",
                "INSERT INTO input_files (id, batch_id, name, stored_path, status, created_at)"
                " VALUES (1, 1, 'a.png', 'a.png', 'expanded', '2026-11-21')",
                "INSERT INTO pages (id, batch_id, input_file_id, source, page_number, format,"
                " frame_index, status) VALUES (1, 1, 1, 'a.png', 1, 'image', 0, 'done')",
                "INSERT INTO puzzles (id, batch_id, page_id, index_on_page, status, corners,"
                " rotation) VALUES (1, 1, 1, 0, 'pending', '[]', 0)",
                "INSERT INTO cells (puzzle_id, row, col, kind, alternatives)"
                " VALUES (1, 0, 0, 'empty', '[]')",
            ):
                connection.execute(text(statement))
        upgrade(url)
        check(url)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM cells")).scalar() == 1
            assert connection.execute(text("SELECT count(*) FROM puzzle_results")).scalar() == 1
    finally:
        engine.dispose()
