"""OCR: read one board's givens, turning it upright from its content first."""

from __future__ import annotations

from jobs.steps import read_board_step
from store import load
from store.db import autocommit, transaction
from store.handover import Handoff, Step, still_waiting, unsent
from store.record import Stage, record_reading
from workers import runtime
from workers.app import TASK_OCR, app
from workers.publish import send_all
from workers.stage import StageTask, Subject, claimed, failures_recorded


@app.task(
    base=StageTask, bind=True, name=TASK_OCR, step=Step.OCR, stage=Stage.OCR, subject=Subject.PUZZLE
)
def read_board(self: StageTask, puzzle_id: int) -> None:
    artifacts = runtime.artifacts()
    with failures_recorded(self, puzzle_id) as clock:
        with autocommit(runtime.marker_sessions()) as session:
            claim = claimed(self, session, puzzle_id)
            if claim is None:
                return
            board, image_path = load.stored_board(session, puzzle_id, artifacts)
            cells = load.stored_cells(session, puzzle_id)
            page, index = load.puzzle_page(session, puzzle_id)
        engine = runtime.ocr_engine()
        read = read_board_step(board, image_path, cells, page, index, engine, artifacts)
        with transaction(runtime.sessions()) as session:
            puzzle = still_waiting(session, self.step, puzzle_id)
            if puzzle is None:
                return
            record_reading(
                session,
                puzzle_id,
                read.recognised,
                read.image_path,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
            )
            unsent(puzzle)  # now waiting for the solve step
        send_all(app, runtime.marker_sessions(), [Handoff(Step.SOLVE, puzzle_id, claim.label)])
