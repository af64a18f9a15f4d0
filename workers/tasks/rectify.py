"""Rectify: load one page and store it, then find and rectify its boards and sort their cells."""

from __future__ import annotations

from typing import Any

from jobs.steps import find_boards_step, load_page_step
from pipeline.ingest.sources import DEFAULT_PDF_DPI
from store import load
from store.db import transaction
from store.record import Stage, record_boards, record_page_image
from workers import runtime
from workers.app import TASK_OCR, TASK_RECTIFY, app
from workers.stage import StageTask, Subject, failures_recorded


@app.task(base=StageTask, bind=True, name=TASK_RECTIFY, stage=Stage.RECTIFY, subject=Subject.PAGE)
def rectify_page_boards(self: StageTask, page_id: int) -> dict[str, Any]:
    puzzle_ids: list[int] = []
    artifacts = runtime.artifacts()
    with failures_recorded(self, page_id) as clock:
        with transaction(runtime.sessions()) as session:
            source = load.page_source(session, page_id, artifacts)
            page = load.page_ref(session, page_id)
        limits = runtime.settings().input_limits()
        loaded = load_page_step(source, page, artifacts, DEFAULT_PDF_DPI, limits)
        with transaction(runtime.sessions()) as session:
            # Stored first and on its own: a page with no grid still shows what was read.
            record_page_image(session, page_id, loaded.image_path, loaded.width, loaded.height)
        found = find_boards_step(loaded.pixels, page, artifacts)
        with transaction(runtime.sessions()) as session:
            puzzle_ids = record_boards(
                session,
                page_id,
                found.boards,
                found.image_paths,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
            )
        for puzzle_id in puzzle_ids:
            app.send_task(TASK_OCR, args=[puzzle_id])
    return {"page_id": page_id, "puzzles": puzzle_ids}
