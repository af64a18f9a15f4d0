"""Where puzzles are solved on the server (issue 31): the OCR task settles the easy 9x9s it
reads itself, and a hard 25x25 (past the inline budget: it needs Kissat) goes to a solve task
on a solve-only worker, while an OCR-only worker finishes the other pages. The stage runs and
the API's progress per stage say which task each solve ran in."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from sqlalchemy import select

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.ingest.textpuzzle import is_puzzle_line, parse_puzzle_line
from sudoku_batch.pipeline.solve.inline import (
    DEFAULT_INLINE_CONFLICTS,
    BeyondBudget,
    budgeted_backend,
)
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory
from sudoku_batch.store.models import Batch, PuzzleStatus, StageRun
from sudoku_batch.store.models import Puzzle as PuzzleRow
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.unique import unique_puzzle
from tests.integration.conftest import (
    Service,
    api_client,
    celery_argv,
    settings_env,
    wait_until,
)

pytestmark = pytest.mark.services

LIMIT = 300.0  # a bound against a hang, not an expectation
# One of the minimal 25x25s that in-process MiniSat does not settle within the inline budget
# and Kissat solves in about a second.
HARD_25X25_LINE = 2
OTHER_PAGES = 3


def hard_25x25(shared_data: Path) -> Puzzle:
    path = shared_data / "puzzles" / "gecode_25x25.txt"
    if not path.is_file():
        pytest.skip(f"{path} is missing from the shared data")
    lines = [line for line in path.read_text().splitlines() if is_puzzle_line(line)]
    return parse_puzzle_line(lines[HARD_25X25_LINE]).puzzle


def easy_9x9(seed: int) -> np.ndarray:
    # Large enough beside the 25x25 to count as a puzzle of the page, not a side feature
    # (pipeline.vision.find_boards.MIN_AREA_OF_LARGEST).
    generated = unique_puzzle(GridShape(3, 3), np.random.default_rng(seed), givens=32)
    return render_grid(generated.puzzle, cell_px=72, rng=np.random.default_rng(seed)).image


def page(top: np.ndarray | None, row: list[np.ndarray]) -> bytes:
    """A white page: ``top`` across its head (if any), then ``row`` side by side, as PNG."""
    margin = 100
    head = 0 if top is None else top.shape[0] + margin
    height = margin + head + max(grid.shape[0] for grid in row) + margin
    width = max(
        margin + sum(grid.shape[1] + margin for grid in row),
        0 if top is None else top.shape[1] + 2 * margin,
    )
    pixels = np.full((height, width, 3), 255, np.uint8)
    if top is not None:
        pixels[margin : margin + top.shape[0], margin : margin + top.shape[1]] = top
    left = margin
    for grid in row:
        pixels[margin + head : margin + head + grid.shape[0], left : left + grid.shape[1]] = grid
        left += grid.shape[1] + margin
    return cv2.imencode(".png", pixels)[1].tobytes()


def test_easy_grids_are_solved_in_the_ocr_task_and_a_hard_one_on_a_solve_worker(
    make_settings: Callable[[str], Settings], tmp_path: Path, shared_data: Path
) -> None:
    hard = hard_25x25(shared_data)
    with pytest.raises(BeyondBudget):  # it needs Kissat
        solve_puzzle(hard, budgeted_backend("auto", DEFAULT_INLINE_CONFLICTS), 60.0)
    hard_grid = render_grid(hard, cell_px=40, rng=np.random.default_rng(3)).image
    first = page(hard_grid, [easy_9x9(1), easy_9x9(2)])
    others = [page(None, [easy_9x9(10 + n), easy_9x9(20 + n)]) for n in range(OTHER_PAGES)]

    settings = make_settings("solve-queue")
    env = settings_env(settings)
    begun, gate = tmp_path / "begun", tmp_path / "gate"
    ocr_worker = Service(
        "ocr-worker",
        celery_argv(
            "worker", "--pool=solo", "--queues=ingest,rectify,ocr", "--hostname=ocr-only@test",
            "--loglevel=INFO", "--without-mingle", "--without-gossip",
        ),
        env,
        tmp_path,
    )  # fmt: skip
    solve_worker = Service(
        "solve-worker",
        [sys.executable, "-m", "tests.integration.held_solve_worker", "--notes", str(begun),
         "--gate", str(gate), "--pool=solo", "--queues=solve", "--hostname=solve-only@test",
         "--loglevel=INFO", "--without-mingle", "--without-gossip"],
        env,
        tmp_path,
    )  # fmt: skip
    engine = make_engine(settings.database_url)
    sessions = make_session_factory(engine)
    try:
        with api_client(settings) as client:
            files = [("files", ("hard.png", first))]
            files += [("files", (f"easy-{n}.png", data)) for n, data in enumerate(others)]
            answer = client.post("/batches", files=files)
            assert answer.status_code == 201, answer.text
            public_id = answer.json()["batch_id"]
            with sessions() as db:
                batch_id = db.scalars(select(Batch.id).where(Batch.public_id == public_id)).one()

            def puzzles() -> list[PuzzleRow]:
                with sessions() as db:
                    return list(db.scalars(select(PuzzleRow).where(PuzzleRow.batch_id == batch_id)))

            # The solve task has begun the 25x25 and is held there: the OCR-only worker goes on
            # and finishes every other page meanwhile.
            wait_until(begun.exists, LIMIT, "the solve task to begin the 25x25")
            expected = 2 + 2 * OTHER_PAGES

            def others_finished() -> bool:
                rows = [z for z in puzzles() if z.size != 25]
                unfinished = (PuzzleStatus.PENDING, PuzzleStatus.READ)
                return len(rows) == expected and all(z.status not in unfinished for z in rows)

            wait_until(others_finished, LIMIT, "the OCR-only worker to finish the other pages")
            assert {(z.size, z.status) for z in puzzles() if z.size != 25} == {
                (9, PuzzleStatus.SOLVED)
            }
            [held] = [z for z in puzzles() if z.size == 25]
            assert held.status == PuzzleStatus.READ
            assert held.claimed_by is not None and held.claimed_by.startswith("solve-only@test/")
            assert not client.get(f"/batches/{public_id}").json()["finished"]

            gate.touch()
            wait_until(
                lambda: client.get(f"/batches/{public_id}").json()["finished"],
                LIMIT,
                "the batch to finish",
            )
            solve_progress = client.get(f"/batches/{public_id}").json()["stages"]["solve"]
        assert ocr_worker.alive(), ocr_worker.log_tail()
        assert solve_worker.alive(), solve_worker.log_tail()

        rows = puzzles()
        assert len(rows) == expected + 1
        assert {z.status for z in rows} == {PuzzleStatus.SOLVED}
        [hard_row] = [z for z in rows if z.size == 25]
        assert hard_row.givens == [list(row) for row in hard.givens]
        with sessions() as db:
            solves = {
                run.puzzle_id: run
                for run in db.scalars(
                    select(StageRun).where(StageRun.batch_id == batch_id, StageRun.stage == "solve")
                )
            }
        for row in rows:
            run = solves[row.id]
            where, worker = (
                ("solve", "solve-only@test") if row.size == 25 else ("ocr", "ocr-only@test")
            )
            assert (run.task, run.status) == (where, "ok"), row.size
            assert run.worker is not None and run.worker.startswith(f"{worker} pid "), run.worker
        assert solve_progress["done"] == expected + 1
        assert solve_progress["done_inline"] == expected
    finally:
        gate.touch()
        solve_worker.stop()
        ocr_worker.stop()
        engine.dispose()
