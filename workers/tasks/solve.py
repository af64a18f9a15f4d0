"""Solve: solve one reading (doubting contradictory readings) and draw a unique solution.

A board's OCR task settles its reading itself when that is cheap and certain
(``workers.tasks.ocr``, ``pipeline.solve.inline``); this task solves the rest (every Kissat run
is here), a puzzle whose cells were corrected, and any puzzle the recovery sweep finds waiting
to be solved."""

from __future__ import annotations

from sqlalchemy.orm import Session

from sudoku_batch.jobs.steps import (
    BoardContext,
    SolvedBoard,
    SolveOptions,
    draw_solution_step,
    solve_reading_step,
)
from sudoku_batch.jobs.table import Stage, Step
from sudoku_batch.pipeline.board import BoardImage
from sudoku_batch.pipeline.certify import BoardFacts
from sudoku_batch.pipeline.reading import BoardReading
from sudoku_batch.pipeline.solve.backend import SatBackend
from sudoku_batch.store import load
from sudoku_batch.store.db import autocommit, transaction
from sudoku_batch.store.handover import still_waiting
from sudoku_batch.store.record import record_solution
from sudoku_batch.workers import runtime
from sudoku_batch.workers.app import app
from sudoku_batch.workers.stage import StageTask, claimed, failures_recorded, stage_task


@stage_task(app, Step.SOLVE)
def solve_board(self: StageTask, puzzle_id: int) -> None:
    with failures_recorded(self, puzzle_id) as clock:
        # Autocommit: the session holds no transaction while the solver runs, only its rows,
        # which the board and its page region load from should the solution be drawn.
        with autocommit(runtime.marker_sessions()) as session:
            claim = claimed(self, session, puzzle_id)  # held: the loads find its rows
            if claim is None:
                return
            reading = load.stored_reading(session, puzzle_id)
            solved = solved_reading(session, puzzle_id, reading, claim.row.printed_role)
        record_solved(self, puzzle_id, solved, clock.seconds)


def solved_reading(
    session: Session,
    puzzle_id: int,
    reading: BoardReading,
    printed_role: str | None,
    board: BoardImage | None = None,
    backend: SatBackend | None = None,
) -> SolvedBoard:
    """A puzzle's reading solved, and a unique solution drawn on its stored page region.
    ``session`` holds the puzzle's rows; ``board`` (upright) None: loaded only to draw, as is
    the region (most grids of a book are drawn; decoding them for any other is waste).
    ``backend`` None: the worker's SAT backend."""
    facts = load.board_facts(session, puzzle_id) if board is None else BoardFacts.of_board(board)
    solved = solve_reading_step(reading, solve_options(backend), printed_role, facts)
    if not solved.drawable:
        return solved
    artifacts = runtime.artifacts()
    if board is None:
        board, _ = load.stored_board(session, puzzle_id, artifacts)
    region = load.stored_region(session, puzzle_id, artifacts)
    page, index = load.puzzle_page(session, puzzle_id)
    return draw_solution_step(solved, board, region, BoardContext(page, index, artifacts))


def solve_options(backend: SatBackend | None = None) -> SolveOptions:
    """How this worker solves: ``backend`` (None: its SAT backend), the settings' timeout,
    rating budget and confident thresholds."""
    settings = runtime.settings()
    return SolveOptions(
        backend or runtime.sat_backend(),
        settings.solve_timeout,
        settings.rating_seconds,
        settings.certify_policy(),
    )


def record_solved(task: StageTask, puzzle_id: int, solved: SolvedBoard, seconds: float) -> None:
    """Record a solve task's outcome, if its puzzle still waits for it (a text puzzle's too)."""
    with transaction(runtime.sessions()) as session:
        puzzle = still_waiting(session, task.step, puzzle_id)  # held: recorded without a re-read
        if puzzle is None:
            return
        record_solution(
            session,
            puzzle_id,
            solved.solution,
            solved.render_path,
            seconds,
            runtime.worker_name(task.request.hostname),
            facts=solved.facts,
            task=Stage.SOLVE,
        )
