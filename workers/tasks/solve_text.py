"""Solve a puzzle given as text (see ``jobs.steps.solve_text_step``)."""

from __future__ import annotations

from jobs.steps import solve_text_step
from store import load
from store.db import autocommit
from store.handover import Step
from store.record import Stage
from workers import runtime
from workers.app import TASK_SOLVE_TEXT, app
from workers.stage import StageTask, Subject, claimed, failures_recorded
from workers.tasks.solve import record_solved


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
