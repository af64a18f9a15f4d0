"""Solve: solve one reading (doubting contradictory readings) and draw the solution."""

from __future__ import annotations

from typing import Any

from pipeline.render import render_solution
from pipeline.solve.reconcile import solve_reading
from store import load
from store.db import transaction
from store.models import Page, Puzzle
from store.record import Stage, record_solution
from workers import runtime
from workers.app import TASK_SOLVE, app
from workers.stage import StageTask, Subject, failures_recorded


@app.task(base=StageTask, bind=True, name=TASK_SOLVE, stage=Stage.SOLVE, subject=Subject.PUZZLE)
def solve_board(self: StageTask, puzzle_id: int) -> dict[str, Any]:
    artifacts = runtime.artifacts()
    settings = runtime.settings()
    verdict = None
    with failures_recorded(self, puzzle_id) as clock:
        with transaction(runtime.sessions()) as session:
            reading = load.stored_reading(session, puzzle_id)
            board = load.stored_board(session, puzzle_id, artifacts)
            puzzle = session.get_one(Puzzle, puzzle_id)
            page_image = session.get_one(Page, puzzle.page_id).image_path
            batch_id = puzzle.batch_id
        solution = solve_reading(reading, runtime.sat_backend(), settings.solve_timeout)
        render_path = None
        if solution.result.solution is not None and page_image is not None:
            render_path = artifacts.render(batch_id, puzzle_id)
            drawn = render_solution(
                artifacts.read_image(page_image),
                board,
                solution.puzzle.givens,
                solution.result.solution,
            )
            artifacts.write_png(render_path, drawn)
        with transaction(runtime.sessions()) as session:
            record_solution(
                session,
                puzzle_id,
                solution,
                render_path,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
            )
        verdict = str(solution.result.verdict)
    return {"puzzle_id": puzzle_id, "verdict": verdict}
