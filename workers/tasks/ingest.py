"""Ingest: list an input file's pages (images, PDF pages, TIFF frames, zip members).

Listing is cheap; each page is loaded by the rectify task that searches it, so a 300-page
book is rasterised by every rectify worker in parallel rather than by one ingest task.
"""

from __future__ import annotations

from sudoku_batch.jobs.table import Step
from sudoku_batch.pipeline.ingest.sources import expand_input
from sudoku_batch.store import load
from sudoku_batch.store.db import autocommit, transaction
from sudoku_batch.store.handover import still_waiting
from sudoku_batch.store.record import add_pages
from sudoku_batch.workers import runtime
from sudoku_batch.workers.app import app
from sudoku_batch.workers.publish import hand_over
from sudoku_batch.workers.stage import StageTask, claimed, failures_recorded, stage_task


@stage_task(app, Step.INGEST)
def ingest_input_file(self: StageTask, input_file_id: int) -> None:
    with failures_recorded(self, input_file_id) as clock:
        with autocommit(runtime.marker_sessions()) as session:
            claim = claimed(self, session, input_file_id)  # held: the load finds its row
            if claim is None:
                return
            path, name = load.stored_input(session, input_file_id, runtime.artifacts())
        # The rules of `run` and `submit` (pipeline.ingest.walk): every unit gets a page, one
        # refused at listing is failed there with its reason and never sent on.
        sources = list(expand_input(path, name, runtime.settings().input_limits()))
        with transaction(runtime.sessions()) as session:
            row = still_waiting(session, self.step, input_file_id)  # held: no re-read below
            if row is None:
                return
            page_ids = add_pages(
                session,
                input_file_id,
                sources,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
                task=self.stage,
            )
        readable = [
            page_id for page_id, source in zip(page_ids, sources, strict=True) if not source.refused
        ]
        hand_over(app, runtime.marker_sessions(), self.then, readable)
