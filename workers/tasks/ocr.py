"""OCR: read one board's givens, turning it upright from its content first."""

from __future__ import annotations

from typing import Any

from pipeline.recognise.read_board import recognise_board
from store import load
from store.db import transaction
from store.models import Puzzle
from store.record import Stage, record_reading
from workers import runtime
from workers.app import TASK_OCR, TASK_SOLVE, app
from workers.stage import StageTask, Subject, failures_recorded


@app.task(base=StageTask, bind=True, name=TASK_OCR, stage=Stage.OCR, subject=Subject.PUZZLE)
def read_board(self: StageTask, puzzle_id: int) -> dict[str, Any]:
    artifacts = runtime.artifacts()
    with failures_recorded(self, puzzle_id) as clock:
        with transaction(runtime.sessions()) as session:
            board = load.stored_board(session, puzzle_id, artifacts)
            puzzle = session.get_one(Puzzle, puzzle_id)
            batch_id, page_id, index = puzzle.batch_id, puzzle.page_id, puzzle.index_on_page
        recognised = recognise_board(board, runtime.ocr_engine())
        upright = artifacts.board_image(batch_id, page_id, index, upright=True)
        artifacts.write_png(upright, recognised.board.pixels)
        with transaction(runtime.sessions()) as session:
            record_reading(
                session,
                puzzle_id,
                recognised,
                upright,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
            )
        app.send_task(TASK_SOLVE, args=[puzzle_id])
    return {"puzzle_id": puzzle_id}
