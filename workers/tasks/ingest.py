"""Ingest: list an input file's pages (images, PDF pages, TIFF frames, zip members).

Listing is cheap; each page is loaded by the rectify task that searches it, so a 300-page
book is rasterised by every rectify worker in parallel rather than by one ingest task.
"""

from __future__ import annotations

from typing import Any

from pipeline.ingest.sources import expand_input
from store import load
from store.db import transaction
from store.record import Stage, add_pages
from workers import runtime
from workers.app import TASK_INGEST, TASK_RECTIFY, app
from workers.stage import StageTask, Subject, failures_recorded


@app.task(
    base=StageTask, bind=True, name=TASK_INGEST, stage=Stage.INGEST, subject=Subject.INPUT_FILE
)
def ingest_input_file(self: StageTask, input_file_id: int) -> dict[str, Any]:
    page_ids: list[int] = []
    with failures_recorded(self, input_file_id) as clock:
        with transaction(runtime.sessions()) as session:
            path, name = load.stored_input(session, input_file_id, runtime.artifacts())
        # The rules of `run` and `submit` (pipeline.ingest.walk): every unit gets a page, one
        # refused at listing is failed there with its reason and never sent on.
        sources = list(expand_input(path, name, runtime.settings().input_limits()))
        with transaction(runtime.sessions()) as session:
            page_ids = add_pages(
                session,
                input_file_id,
                sources,
                clock.seconds,
                runtime.worker_name(self.request.hostname),
            )
        for page_id, source in zip(page_ids, sources, strict=True):
            if not source.refused:
                app.send_task(TASK_RECTIFY, args=[page_id])
    return {"input_file_id": input_file_id, "pages": page_ids}
