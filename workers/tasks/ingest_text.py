"""Ingest a text file of puzzles: each line becomes a puzzle read with certainty, to solve."""

from __future__ import annotations

from typing import Any

from pipeline.ingest.textpuzzle import read_puzzle_file
from store import load
from store.db import transaction
from store.record import Stage, add_text_puzzles
from workers import runtime
from workers.app import TASK_INGEST_TEXT, TASK_SOLVE_TEXT, app
from workers.stage import StageTask, Subject, failures_recorded


@app.task(
    base=StageTask,
    bind=True,
    name=TASK_INGEST_TEXT,
    stage=Stage.INGEST,
    subject=Subject.INPUT_FILE,
)
def ingest_text_file(self: StageTask, input_file_id: int) -> dict[str, Any]:
    puzzle_ids: list[int] = []
    with failures_recorded(self, input_file_id) as clock:
        with transaction(runtime.sessions()) as session:
            path, name, box = load.text_puzzle_file(session, input_file_id, runtime.artifacts())
        lines = read_puzzle_file(path, name, box)
        with transaction(runtime.sessions()) as session:
            puzzle_ids = add_text_puzzles(
                session,
                input_file_id,
                lines,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
            )
        for puzzle_id in puzzle_ids:
            app.send_task(TASK_SOLVE_TEXT, args=[puzzle_id])
    return {"input_file_id": input_file_id, "puzzles": len(puzzle_ids)}
