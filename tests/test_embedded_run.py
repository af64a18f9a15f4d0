"""The README's main job: `sudoku-batch run examples/ --out DIR`, checked against the truth the
examples were generated with."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from sudoku_batch.cli import main
from sudoku_batch.outcome import ExitCode
from tests.conftest import REPO_ROOT

EXAMPLES = REPO_ROOT / "examples"


def _truth() -> dict[tuple[str, int, int], dict]:
    truth = json.loads((EXAMPLES / "truth.json").read_text())
    return {
        (name, page["page"], index): grid
        for name, document in truth.items()
        for page in document["pages"]
        for index, grid in enumerate(page["grids"])
    }


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run")
    assert main(["run", str(EXAMPLES), "--out", str(out), "--jobs", "2", "--no-progress"]) == 0
    return out


def test_every_example_grid_is_found_read_and_solved(run_dir: Path) -> None:
    records = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    found = {(Path(r["source"]).name, r["page"], r["index"]): r for r in records}
    truth = _truth()
    assert found.keys() == truth.keys()
    for key, grid in truth.items():
        record = found[key]
        assert record["status"] == "solved", (key, record["message"])
        assert record["size"] == [grid["size"], grid["size"]]
        assert record["box"] == grid["box"]
        assert record["givens"] == grid["givens"], key
        assert record["solution"] == grid["solution"], key
        assert 0.5 < record["confidence"] <= 1.0
        assert (run_dir / record["render_path"]).is_file()


def test_rows_land_in_the_sqlite_database(run_dir: Path) -> None:
    with sqlite3.connect(run_dir / "sudoku-batch.sqlite") as db:
        puzzles = db.execute("select count(*) from puzzles").fetchone()[0]
        givens = db.execute(
            "select count(*) from cells where kind = 'given' and confidence is not null"
        ).fetchone()[0]
        solved = db.execute("select count(*) from solutions where verdict = 'solved'").fetchone()[0]
    truth = _truth()
    assert puzzles == solved == len(truth)
    assert givens == sum(
        1 for grid in truth.values() for row in grid["givens"] for value in row if value
    )


def test_a_page_without_a_grid_and_a_broken_file_are_reported_and_the_rest_goes_on(
    tmp_path: Path,
) -> None:
    import cv2
    import numpy as np

    inputs = tmp_path / "in"
    inputs.mkdir()
    cv2.imwrite(str(inputs / "blank.png"), np.full((400, 300, 3), 255, np.uint8))
    (inputs / "broken.jpg").write_bytes(b"\xff\xd8 truncated")
    (inputs / "photo.jpg").write_bytes((EXAMPLES / "photo.jpg").read_bytes())
    out = tmp_path / "out"
    code = main(["run", str(inputs), "--out", str(out), "--jobs", "1", "--no-progress"])
    assert code == ExitCode.SOME_INPUTS_FAILED  # the broken file
    records = {
        Path(r["source"]).name: r
        for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())
    }
    assert records["blank.png"]["status"] == "no_grid"
    assert records["broken.jpg"]["status"] == "failed"
    assert "broken.jpg" in records["broken.jpg"]["message"]
    assert records["photo.jpg"]["status"] == "solved"


def test_a_bug_in_a_stage_fails_that_board_with_a_reportable_message(tmp_path: Path) -> None:
    from sudoku_batch.page_job import Engines, PageJobSettings, process_page
    from sudoku_batch.pipeline.errors import InternalError
    from sudoku_batch.pipeline.ingest.sources import expand_inputs
    from sudoku_batch.pipeline.solve.backends import make_backend
    from sudoku_batch.store.artifacts import PageRef

    class BrokenEngine:
        name = "broken"

        def read_digits(self, crops, symbols):
            raise RuntimeError("model exploded")

    (source,) = expand_inputs([EXAMPLES / "photo.jpg"])
    settings = PageJobSettings(dpi=200, solve_timeout=5.0, out_dir=tmp_path)
    page = PageRef(batch_id=1, page_id=1, source=source.source, page=source.page)
    engines = Engines(BrokenEngine(), make_backend("kissat"), None)
    outcome = process_page(source, page, engines, settings)
    assert outcome.error is None
    (puzzle,) = outcome.boards
    assert isinstance(puzzle.error, InternalError)
    assert puzzle.error_stage == "ocr"
    assert "model exploded" in puzzle.error.message and "ocr stage" in puzzle.error.message


def test_boards_are_stored_in_grey_and_whole_pages_only_when_asked(
    run_dir: Path, tmp_path: Path
) -> None:
    import cv2

    with sqlite3.connect(run_dir / "sudoku-batch.sqlite") as db:
        boards = [row[0] for row in db.execute("select board_image_path from puzzles")]
        pages = [row[0] for row in db.execute("select image_path from pages")]
    assert boards and all(
        cv2.imread(str(run_dir / board), cv2.IMREAD_UNCHANGED).ndim == 2 for board in boards
    )
    assert pages and pages == [None] * len(pages)
    assert not (run_dir / "pages").exists()

    out = tmp_path / "kept"
    photo = str(EXAMPLES / "photo.jpg")
    argv = ["run", photo, "--out", str(out), "--keep-intermediates", "--no-progress"]
    assert main(argv) == 0
    with sqlite3.connect(out / "sudoku-batch.sqlite") as db:
        (page,) = [row[0] for row in db.execute("select image_path from pages")]
    assert cv2.imread(str(out / page)).shape[2] == 3
    assert list((out / "cells").iterdir())


def test_a_full_output_folder_stops_the_run_as_interrupted_and_running_again_finishes(
    tmp_path: Path,
) -> None:
    import threading

    from tests.small_disk import fill, small_disk

    with small_disk(tmp_path / "disk", "16m") as disk:
        out = disk / "out"
        filled: list[Path] = []

        def fill_after_the_first_render() -> None:  # mid-run: some grids done, others not
            while not (out / "renders").is_dir() or not any((out / "renders").iterdir()):
                threading.Event().wait(0.005)
            filled.append(fill(disk))

        filler = threading.Thread(target=fill_after_the_first_render, daemon=True)
        filler.start()
        argv = ["run", str(EXAMPLES), "--out", str(out), "--jobs", "1", "--no-progress"]
        assert main(argv) == ExitCode.UNAVAILABLE
        filler.join(timeout=60)
        assert filled
        results = out / "results.jsonl"
        if results.exists():  # else even it could not be written: the pages stay pending
            records = [json.loads(line) for line in results.read_text().splitlines()]
            assert "failed" not in {record["status"] for record in records}
            stopped = [record for record in records if record["status"] == "interrupted"]
            assert stopped and all("no space left" in r["message"] for r in stopped)
        filled[0].unlink()
        assert main(argv) == ExitCode.OK
        records = [json.loads(line) for line in results.read_text().splitlines()]
        assert len(records) == len(_truth())
        assert {record["status"] for record in records} == {"solved"}
