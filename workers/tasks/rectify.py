"""Rectify: load one page, find and rectify its boards, sort their cells."""

from __future__ import annotations

from typing import Any

from pipeline.ingest.sources import load_page
from pipeline.vision.cells import classify_cells
from pipeline.vision.page_boards import rectify_page
from store import load
from store.db import transaction
from store.models import Page
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
            batch_id = session.get_one(Page, page_id).batch_id
        pixels = load_page(source).pixels
        page_image = artifacts.page_image(batch_id, page_id)
        artifacts.write_png(page_image, pixels)
        with transaction(runtime.sessions()) as session:
            # Stored first and on its own: a page with no grid still shows what was read.
            height, width = pixels.shape[:2]
            record_page_image(session, page_id, page_image, width, height)
        boards = rectify_page(pixels)
        cells = [classify_cells(board) for board in boards]
        board_images = []
        for index, board in enumerate(boards):
            board_images.append(artifacts.board_image(batch_id, page_id, index, upright=False))
            artifacts.write_png(board_images[-1], board.pixels)
        with transaction(runtime.sessions()) as session:
            puzzle_ids = record_boards(
                session,
                page_id,
                boards,
                cells,
                board_images,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
            )
        for puzzle_id in puzzle_ids:
            app.send_task(TASK_OCR, args=[puzzle_id])
    return {"page_id": page_id, "puzzles": puzzle_ids}
