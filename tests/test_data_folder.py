"""The data folder: absolute from the start, made and marked by the API, and checked by
``/health`` and ``worker --ping`` (missing, not the API's, not writable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_batch.settings import Settings
from sudoku_batch.store import data_folder


def test_a_relative_data_folder_is_made_absolute_once_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    settings = Settings.from_env({"SUDOKU_BATCH_DATA_DIR": "data"})
    monkeypatch.chdir("/")  # a later change of folder moves nothing
    assert settings.data_dir == tmp_path / "data"
    assert settings.database_url == f"sqlite:///{tmp_path / 'data' / 'sudoku-batch.sqlite'}"


def test_the_apis_folder_is_made_and_marked_and_another_is_told_apart(tmp_path: Path) -> None:
    apis = tmp_path / "api-data"
    assert "is missing" in (data_folder.problem(apis) or "")
    data_folder.prepare(apis)
    assert (apis / data_folder.MARKER).is_file()
    assert data_folder.problem(apis) is None
    elsewhere = tmp_path / "second-host"
    elsewhere.mkdir()
    problem = data_folder.problem(elsewhere) or ""
    assert "not the API's" in problem
    assert str(tmp_path) not in problem  # /health shows it to anyone: no host path
    assert [p.name for p in apis.iterdir()] == [data_folder.MARKER]  # the probe cleaned up
