"""Rectify: load one page and store it, then find and rectify its boards and sort their cells."""

from __future__ import annotations

from sudoku_batch.jobs.steps import PageContext, find_boards_step, load_page_step
from sudoku_batch.jobs.table import Step
from sudoku_batch.pipeline.ingest.sources import DEFAULT_PDF_DPI
from sudoku_batch.store import load
from sudoku_batch.store.db import autocommit, transaction
from sudoku_batch.store.handover import Handoff, puzzle_label, still_waiting
from sudoku_batch.store.record import record_boards, record_page_image
from sudoku_batch.workers import runtime
from sudoku_batch.workers.app import app
from sudoku_batch.workers.publish import send_all
from sudoku_batch.workers.stage import StageTask, claimed, failures_recorded, stage_task


@stage_task(app, Step.RECTIFY)
def rectify_page_boards(self: StageTask, page_id: int) -> None:
    artifacts = runtime.artifacts()
    with failures_recorded(self, page_id) as clock:
        with autocommit(runtime.marker_sessions()) as session:
            claim = claimed(self, session, page_id)
            if claim is None:
                return
            source = load.page_source(session, page_id, artifacts)
            at = PageContext(load.page_ref(session, page_id), artifacts)
        settings = runtime.settings()
        loaded = load_page_step(
            source,
            at,
            DEFAULT_PDF_DPI,
            settings.input_limits(),
            settings.keep_page_images,
        )
        with autocommit(runtime.sessions()) as session:
            # Stored first and on its own: a page with no grid still has its size (and its
            # image, if kept).
            record_page_image(
                session,
                page_id,
                loaded.image_path,
                loaded.width,
                loaded.height,
                loaded.damaged,
            )
        found = find_boards_step(
            loaded.pixels,
            at,
            runtime.caption_reader(),
            store_regions=True,
            damaged=loaded.damaged,
        )
        with transaction(runtime.sessions()) as session:
            row = still_waiting(session, self.step, page_id)  # held: recorded without a re-read
            if row is None:
                return
            puzzle_ids = record_boards(
                session,
                page_id,
                found.boards,
                found.image_paths,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
                found.captions,
                task=self.stage,
            )
        handoffs = [
            Handoff(self.then, puzzle_id, puzzle_label(claim.label, index))
            for index, puzzle_id in enumerate(puzzle_ids)
        ]
        send_all(app, runtime.marker_sessions(), handoffs)
