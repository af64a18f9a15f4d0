"""Ingest a text file of puzzles: each line becomes a puzzle read with certainty, to solve."""

from __future__ import annotations

from sudoku_batch.jobs.table import Step
from sudoku_batch.pipeline.ingest.textpuzzle import read_puzzle_file
from sudoku_batch.store import load
from sudoku_batch.store.db import autocommit, transaction
from sudoku_batch.store.handover import still_waiting
from sudoku_batch.store.record import add_text_puzzles
from sudoku_batch.workers import runtime
from sudoku_batch.workers.app import app
from sudoku_batch.workers.publish import hand_over
from sudoku_batch.workers.stage import StageTask, claimed, failures_recorded, stage_task


@stage_task(app, Step.INGEST_TEXT)
def ingest_text_file(self: StageTask, input_file_id: int) -> None:
    with failures_recorded(self, input_file_id) as clock:
        with autocommit(runtime.marker_sessions()) as session:
            claim = claimed(self, session, input_file_id)  # held: the load finds its row
            if claim is None:
                return
            path, name, box = load.text_puzzle_file(session, input_file_id, runtime.artifacts())
        lines = read_puzzle_file(path, name, box)
        with transaction(runtime.sessions()) as session:
            row = still_waiting(session, self.step, input_file_id)  # held: no re-read below
            if row is None:
                return
            puzzle_ids = add_text_puzzles(
                session,
                input_file_id,
                lines,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
                task=self.stage,
            )
        hand_over(app, runtime.marker_sessions(), self.then, puzzle_ids)
