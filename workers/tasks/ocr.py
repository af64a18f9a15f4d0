"""OCR: read one board's givens, turning it upright from its content first, then solve it.

The task solves the reading itself and records both stages' outcomes in one transaction,
instead of sending a solve task: that message, its claim, its transaction and its task events
cost about as much CPU as the solving itself (docs/throughput.md). A reading the solving here
fails on is recorded alone and handed to the solve task, under that task's error policy."""

from __future__ import annotations

import logging

from jobs.steps import Clock, SolvedBoard, read_board_step
from store import load
from store.db import autocommit, transaction
from store.handover import Handoff, Step, still_waiting, taken_at_once, unsent
from store.record import Stage, record_reading, record_solution
from workers import runtime
from workers.app import TASK_OCR, app
from workers.publish import send_all
from workers.stage import StageTask, Subject, claimed, failures_recorded
from workers.tasks.solve import solved_reading

logger = logging.getLogger(__name__)


@app.task(
    base=StageTask, bind=True, name=TASK_OCR, step=Step.OCR, stage=Stage.OCR, subject=Subject.PUZZLE
)
def read_board(self: StageTask, puzzle_id: int) -> None:
    artifacts = runtime.artifacts()
    worker = runtime.worker_name(self.request.hostname)
    with failures_recorded(self, puzzle_id) as clock:
        # Autocommit: no transaction is held while the board is read and solved, only the
        # claimed rows, which the solving loads from.
        with autocommit(runtime.marker_sessions()) as session:
            claim = claimed(self, session, puzzle_id)
            if claim is None:
                return
            board, image_path = load.stored_board(session, puzzle_id, artifacts)
            cells = load.stored_cells(session, puzzle_id)
            page, index = load.puzzle_page(session, puzzle_id)
            read = read_board_step(
                board, image_path, cells, page, index, runtime.ocr_engine(), artifacts
            )
            reading_seconds, solving = clock.seconds, Clock()
            solved: SolvedBoard | None = None
            try:
                recognised = read.recognised
                solved = solved_reading(
                    session, puzzle_id, recognised.reading, claim.row.printed_role, recognised.board
                )
            except Exception:
                logger.warning("%s[%s]: solving handed on", self.name, puzzle_id, exc_info=True)
        with transaction(runtime.sessions()) as recording:
            puzzle = still_waiting(recording, self.step, puzzle_id)
            if puzzle is None:
                return
            record_reading(
                recording, puzzle_id, read.recognised, read.image_path, reading_seconds, worker
            )
            if solved is None:
                unsent(puzzle)  # now waiting for the solve task
            else:
                taken_at_once(puzzle, runtime.incarnation())  # its solve run waited for nothing
                record_solution(
                    recording,
                    puzzle_id,
                    solved.solution,
                    solved.render_path,
                    solving.seconds,
                    worker,
                    facts=solved.facts,
                )
        if solved is None:
            send_all(app, runtime.marker_sessions(), [Handoff(Step.SOLVE, puzzle_id, claim.label)])
