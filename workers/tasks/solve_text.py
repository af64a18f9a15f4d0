"""Solve a puzzle given as text (see ``jobs.steps.solve_text_step``)."""

from __future__ import annotations

from jobs.steps import solve_text_step
from jobs.table import Step
from store import load
from store.db import autocommit
from workers import runtime
from workers.app import app
from workers.stage import StageTask, claimed, failures_recorded, stage_task
from workers.tasks.solve import record_solved, solve_options


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
