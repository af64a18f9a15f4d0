"""A new embedded database is a copy of an empty one the migrations made, kept under a name
that changes with the migration scripts."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from sudoku_batch.embedded import DATABASE_NAME
from sudoku_batch.embedded_store import open_database
from sudoku_batch.settings import environment
from sudoku_batch.store import schema_template
from sudoku_batch.store.schema_current import VERSIONS_DIR, sqlite_is_current


def tables(database: Path) -> list[tuple]:
    with sqlite3.connect(database) as db:
        return db.execute("select type, name, sql from sqlite_master order by name").fetchall()


def test_the_second_new_database_is_a_copy_of_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(environment.CACHE_DIR, str(tmp_path / "cache"))
    first, second = tmp_path / "first", tmp_path / "second"
    open_database(first)[0].dispose()
    assert schema_template.template_path().is_file(), "the first migrated database was kept"
    migrated = []
    monkeypatch.setattr("sudoku_batch.store.migrate.upgrade", lambda url: migrated.append(url))
    open_database(second)[0].dispose()
    assert migrated == [], "the second was copied, not migrated"
    assert sqlite_is_current(second / DATABASE_NAME)
    assert tables(second / DATABASE_NAME) == tables(first / DATABASE_NAME)


def test_a_changed_script_names_another_template(tmp_path: Path) -> None:
    versions = tmp_path / "versions"
    versions.mkdir()
    for script in VERSIONS_DIR.glob("*.py"):
        (versions / script.name).write_bytes(script.read_bytes())
    before = schema_template.template_path(versions)
    assert before == schema_template.template_path(VERSIONS_DIR)
    newest = max(versions.glob("*.py"))
    newest.write_text(newest.read_text() + "\n# changed\n")
    assert schema_template.template_path(versions) != before


def test_an_unwritable_cache_only_means_migrating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(environment.CACHE_DIR, str(blocked / "cache"))
    open_database(tmp_path / "run")[0].dispose()
    assert sqlite_is_current(tmp_path / "run" / DATABASE_NAME)
    assert not schema_template.copy_template(tmp_path / "other.sqlite")


def test_changed_views_name_another_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Migration 0001 makes the views from store/results_view.py: a change there is a change of
    # the empty schema as much as a changed script.
    before = schema_template.template_path()
    views = tmp_path / "results_view.py"
    views.write_text(schema_template.VIEWS_FILE.read_text() + "\n# changed\n")
    monkeypatch.setattr(schema_template, "VIEWS_FILE", views)
    assert schema_template.template_path() != before
