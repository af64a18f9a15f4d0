"""The results contract's fields are one list, the ``results`` view's columns
(``store.results_view``): the view's SQL gives exactly them, and the API's ``ResultRecord``
has each of them but the database's own row ids, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from sudoku_batch.api.schemas import ResultRecord
from sudoku_batch.embedded_store import open_database
from sudoku_batch.settings import environment
from sudoku_batch.store.book_check import NO_BATCH_FIELDS
from sudoku_batch.store.results_view import (
    GRID_KEYS,
    PUZZLE_ONLY_KEYS,
    ROW_IDS,
    cell_readings,
    results,
)


def test_the_api_record_has_the_fields_of_results_jsonl_and_no_other() -> None:
    assert set(ResultRecord.model_fields) == set(GRID_KEYS) - set(ROW_IDS) | set(NO_BATCH_FIELDS)


def test_the_puzzle_only_keys_are_record_keys() -> None:
    assert set(PUZZLE_ONLY_KEYS) < set(GRID_KEYS)


def test_the_views_sql_gives_the_declared_columns_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(environment.CACHE_DIR, str(tmp_path / "cache"))
    engine, _ = open_database(tmp_path / "run")
    try:
        with engine.connect() as connection:
            for view in (results, cell_readings):
                answer = connection.execute(text(f"SELECT * FROM {view.name} LIMIT 0"))
                assert list(answer.keys()) == list(view.columns.keys())
    finally:
        engine.dispose()
