"""Solve a puzzle given as text (see ``jobs.steps.solve_text_step``)."""

from __future__ import annotations

from sudoku_batch.jobs.steps import solve_text_step
from sudoku_batch.store import load
from sudoku_batch.store.db import autocommit
from sudoku_batch.store.handover import Step
from sudoku_batch.store.record import Stage
from sudoku_batch.workers import runtime
from sudoku_batch.workers.app import TASK_SOLVE_TEXT, app
from sudoku_batch.workers.stage import StageTask, Subject, claimed, failures_recorded
from sudoku_batch.workers.tasks.solve import record_solved


@app.task(
    base=StageTask,
    bind=True,
    name=TASK_SOLVE_TEXT,
    step=Step.SOLVE_TEXT,
    stage=Stage.SOLVE,
    subject=Subject.PUZZLE,
)
def solve_text_puzzle(self: StageTask, puzzle_id: int) -> None:
    with failures_recorded(self, puzzle_id) as clock:
        with autocommit(runtime.marker_sessions()) as session:
            claim = claimed(self, session, puzzle_id)  # held: the load finds its row
            if claim is None:
                return
            puzzle = load.stored_puzzle(session, puzzle_id)
        settings = runtime.settings()
        solved = solve_text_step(
            puzzle, runtime.sat_backend(), settings.solve_timeout, settings.rating_seconds
        )
        record_solved(self, puzzle_id, solved, clock.seconds)
