"""Naming a batch by its output folder: a folder whose database is behind the newest schema is
migrated first."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import inspect

from sudoku_batch.cli import main
from sudoku_batch.embedded import DATABASE_NAME
from sudoku_batch.store.db import make_engine
from sudoku_batch.store.migrate import alembic_config, upgrade


def test_a_folder_of_an_older_schema_is_migrated_before_it_is_read(tmp_path: Path) -> None:
    # The schema is one revision (0.1.0 is unreleased), so "older" is the oldest there is: a
    # database at Alembic's base, with no tables. Read without migrating, it would fail
    # (no such table: exit 1); migrated first, the folder simply holds no batch (exit 2).
    url = f"sqlite:///{tmp_path / DATABASE_NAME}"
    upgrade(url)
    command.downgrade(alembic_config(url), "base")
    engine = make_engine(url)
    try:
        assert "puzzles" not in inspect(engine).get_table_names()
        key = tmp_path / "key.pdf"
        assert main(["answer-key", str(tmp_path), "--out", str(key)]) == 2
        engine.dispose()
        assert "symbols" in {c["name"] for c in inspect(engine).get_columns("puzzles")}
    finally:
        engine.dispose()
