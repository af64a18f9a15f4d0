"""The rater's budget is a setting: SUDOKU_BATCH_RATING_SECONDS reaches both drivers."""

from __future__ import annotations

import pytest

from sudoku_batch.commands import run
from sudoku_batch.pipeline.book.bounded_rating import BACKSTOP, DEFAULT_RATING_SECONDS
from sudoku_batch.settings import InvalidSetting, Settings
from sudoku_batch.workers.app import solve_time_limits


def test_default_and_override():
    assert Settings.from_env({}).rating_seconds == DEFAULT_RATING_SECONDS
    assert Settings.from_env({"SUDOKU_BATCH_RATING_SECONDS": "0.5"}).rating_seconds == 0.5
    with pytest.raises(InvalidSetting, match="RATING_SECONDS"):
        Settings.from_env({"SUDOKU_BATCH_RATING_SECONDS": "0"})


def test_the_embedded_run_takes_it_from_the_environment(monkeypatch):
    monkeypatch.setenv("SUDOKU_BATCH_RATING_SECONDS", "7")
    assert run._from_settings()["rating_seconds"] == 7.0


def test_the_solve_task_limit_leaves_room_for_the_rater():
    short = solve_time_limits(Settings.from_env({}))
    long = solve_time_limits(Settings.from_env({"SUDOKU_BATCH_RATING_SECONDS": "100"}))
    assert long[0] - short[0] == pytest.approx(BACKSTOP * (100 - DEFAULT_RATING_SECONDS))
