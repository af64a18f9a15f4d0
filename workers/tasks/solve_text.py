"""Solve a puzzle given as text (see ``jobs.steps.solve_text_step``)."""

from __future__ import annotations

from sudoku_batch.jobs.steps import solve_text_step
from sudoku_batch.jobs.table import Step
from sudoku_batch.store import load
from sudoku_batch.store.db import autocommit
from sudoku_batch.workers import runtime
from sudoku_batch.workers.app import app
from sudoku_batch.workers.stage import StageTask, claimed, failures_recorded, stage_task
from sudoku_batch.workers.tasks.solve import record_solved, solve_options


@stage_task(app, Step.SOLVE_TEXT)
def solve_text_puzzle(self: StageTask, puzzle_id: int) -> None:
    with failures_recorded(self, puzzle_id) as clock:
        with autocommit(runtime.marker_sessions()) as session:
            claim = claimed(self, session, puzzle_id)  # held: the load finds its row
            if claim is None:
                return
            puzzle = load.stored_puzzle(session, puzzle_id)
        solved = solve_text_step(puzzle, solve_options())
        record_solved(self, puzzle_id, solved, clock.seconds)
