"""The embedded runner skips the migrations only when the database is at Alembic's own head."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic.script import ScriptDirectory

from sudoku_batch.store.migrate import alembic_config, upgrade
from sudoku_batch.store.schema_current import head_revision, sqlite_is_current


def test_the_head_read_from_the_scripts_is_alembics(tmp_path: Path) -> None:
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert head_revision() == scripts.get_current_head()


def test_only_a_database_at_the_head_is_current(tmp_path: Path) -> None:
    database = tmp_path / "run.sqlite"
    assert not sqlite_is_current(database)  # none yet
    upgrade(f"sqlite:///{database}")
    assert sqlite_is_current(database)
    with sqlite3.connect(database) as db:
        db.execute("update alembic_version set version_num = 'an older one'")
    assert not sqlite_is_current(database)
    with sqlite3.connect(database) as db:
        db.execute("delete from alembic_version")
    assert not sqlite_is_current(database)


def test_a_database_that_is_no_sqlite_file_is_not_current(tmp_path: Path) -> None:
    database = tmp_path / "run.sqlite"
    database.write_bytes(b"not a database")
    assert not sqlite_is_current(database)
