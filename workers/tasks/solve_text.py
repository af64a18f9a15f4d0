"""Solve a puzzle given as text: its givens are certain, so none is doubted, and there is no
page to draw the solution on."""

from __future__ import annotations

from typing import Any

from pipeline.solve.result import PuzzleSolution
from pipeline.solve.solver import solve_puzzle
from store import load
from store.db import transaction
from store.record import Stage, record_solution
from workers import runtime
from workers.app import TASK_SOLVE_TEXT, app
from workers.stage import StageTask, Subject, failures_recorded


@app.task(
    base=StageTask, bind=True, name=TASK_SOLVE_TEXT, stage=Stage.SOLVE, subject=Subject.PUZZLE
)
def solve_text_puzzle(self: StageTask, puzzle_id: int) -> dict[str, Any]:
    verdict = None
    with failures_recorded(self, puzzle_id) as clock:
        with transaction(runtime.sessions()) as session:
            puzzle = load.stored_puzzle(session, puzzle_id)
        result = solve_puzzle(puzzle, runtime.sat_backend(), runtime.settings().solve_timeout)
        with transaction(runtime.sessions()) as session:
            record_solution(
                session,
                puzzle_id,
                PuzzleSolution(puzzle, result),
                None,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
            )
        verdict = str(result.verdict)
    return {"puzzle_id": puzzle_id, "verdict": verdict}
