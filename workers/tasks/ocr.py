"""OCR: read one board's givens, turning it upright from its content first."""

from __future__ import annotations

from typing import Any

from jobs.steps import read_board_step
from store import load
from store.db import transaction
from store.record import Stage, record_reading
from workers import runtime
from workers.app import TASK_OCR, TASK_SOLVE, app
from workers.stage import StageTask, Subject, failures_recorded


@app.task(base=StageTask, bind=True, name=TASK_OCR, stage=Stage.OCR, subject=Subject.PUZZLE)
def read_board(self: StageTask, puzzle_id: int) -> dict[str, Any]:
    artifacts = runtime.artifacts()
    with failures_recorded(self, puzzle_id) as clock:
        with transaction(runtime.sessions()) as session:
            board, image_path = load.stored_board(session, puzzle_id, artifacts)
            cells = load.stored_cells(session, puzzle_id)
            page, index, _ = load.puzzle_page(session, puzzle_id)
        engine = runtime.ocr_engine()
        read = read_board_step(board, image_path, cells, page, index, engine, artifacts)
        with transaction(runtime.sessions()) as session:
            record_reading(
                session,
                puzzle_id,
                read.recognised,
                read.image_path,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
            )
        app.send_task(TASK_SOLVE, args=[puzzle_id])
    return {"puzzle_id": puzzle_id}
