"""A one-page run's page starts in a forked process before its rows exist (issue 13); its
files then carry the names its row's id gives, as a page run after its rows would."""

from __future__ import annotations

import errno
import gc
import json
import os
import shutil
import signal
import sqlite3
from pathlib import Path

import pytest

from sudoku_batch.embedded import DATABASE_NAME, RESULTS_NAME, EmbeddedOptions, run_batch
from sudoku_batch.page_ahead import PROVISIONAL_ID, PageAhead
from sudoku_batch.pipeline.errors import WorkerCrashed
from sudoku_batch.pipeline.ingest.sources import expand_inputs
from sudoku_batch.store.artifacts import PageRef
from tests.conftest import REPO_ROOT

PHOTO = REPO_ROOT / "examples" / "photo.jpg"
VARYING = ("batch_id", "input_file_id", "page_id", "puzzle_id", "source", "render_path", "seconds")


def _run(out: Path, photo: Path = PHOTO) -> list[dict]:
    options = EmbeddedOptions(out, progress=False, keep_intermediates=True)
    return run_batch([photo], options).records


def _stored_paths(out: Path, page_id: int) -> list[str]:
    with sqlite3.connect(out / DATABASE_NAME) as db:
        return [
            path
            for query in (
                "select image_path from pages where id = ?",
                "select board_image_path from puzzles where page_id = ?",
                "select render_path from solutions join puzzles on puzzles.id = puzzle_id "
                "where page_id = ?",
            )
            for (path,) in db.execute(query, (page_id,))
        ]


def test_the_page_files_are_named_by_the_row_made_beside_them(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = _run(out)
    # Another input into the same folder is a new batch: its page is row 2, not a guess.
    (tmp_path / "again").mkdir()
    second = _run(out, Path(shutil.copy(PHOTO, tmp_path / "again" / PHOTO.name)))
    for records, page_id in ((first, 1), (second, 2)):
        (record,) = records
        assert record["status"] == "solved" and record["page_id"] == page_id
        paths = _stored_paths(out, page_id)
        assert len(paths) == 3  # the page (kept), the board, the render
        for path in paths:
            assert Path(path).name.startswith(f"{page_id:05d}-photo.jpg-p1")
            assert (out / path).is_file()
        assert (out / "cells" / f"{page_id:05d}-photo.jpg-p1-g0").is_dir()
    assert not [made for made in out.rglob(f"{PROVISIONAL_ID:05d}-*")]
    assert _same(first, second)
    lines = (out / RESULTS_NAME).read_text().splitlines()
    assert [json.loads(line)["page_id"] for line in lines] == [2]


def _same(first: list[dict], second: list[dict]) -> bool:
    def kept(records: list[dict]) -> list[dict]:
        return [{k: v for k, v in r.items() if k not in VARYING} for r in records]

    return kept(first) == kept(second)


def _ahead(out: Path) -> tuple[PageAhead, list]:
    (source,) = expand_inputs([PHOTO])
    options = EmbeddedOptions(out, keep_intermediates=True)
    todo = [(source, PageRef(7, 7, source.source, source.page))]
    return PageAhead(source, options.engine, options.backend, options.job_settings()), todo


def test_a_stop_ends_the_page_and_deletes_what_it_wrote(tmp_path: Path) -> None:
    ahead, todo = _ahead(tmp_path)

    def written() -> bool:  # the whole page, kept, is written first; the page then goes on
        return any(tmp_path.glob("pages/*"))

    outcomes = ahead.outcomes(todo, stopping=written)
    assert outcomes is not None and list(outcomes) == []
    assert ahead.pid is None  # reaped
    assert not [made for made in tmp_path.rglob("*") if made.is_file()]


def test_a_page_whose_process_dies_fails_alone(tmp_path: Path) -> None:
    ahead, todo = _ahead(tmp_path)
    assert ahead.pid is not None
    os.kill(ahead.pid, signal.SIGKILL)
    outcomes = ahead.outcomes(todo, stopping=lambda: False)
    assert outcomes is not None
    ((page, outcome),) = list(outcomes)
    assert page == todo[0][1]
    assert isinstance(outcome.error, WorkerCrashed) and "SIGKILL" in outcome.error.message


def test_a_batch_that_holds_other_pages_to_do_stops_the_page(tmp_path: Path) -> None:
    ahead, todo = _ahead(tmp_path)
    assert ahead.outcomes([], stopping=lambda: False) is None
    assert ahead.pid is None


def test_without_a_process_to_spare_the_page_runs_after_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_fork() -> int:
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    (record,) = run_batch([PHOTO], EmbeddedOptions(tmp_path, progress=False)).records
    assert record["status"] == "solved"
    assert gc.get_freeze_count() == 0
