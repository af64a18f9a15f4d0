"""``/batches``: send files as a new batch, list a key's batches, follow one."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, File, Query, UploadFile

from sudoku_batch.api.auth import ApiKeyId, KeyBeforeBody
from sudoku_batch.api.batch_status import MAX_WAIT_SECONDS, batch_status
from sudoku_batch.api.deps import Db, Limit, Offset, Sessions, Submit
from sudoku_batch.api.responses import ERRORS, NOT_FOUND, UPLOAD_ERRORS
from sudoku_batch.api.schemas import BatchPage, BatchStatus, BatchSummary, Submitted
from sudoku_batch.api.submission import Label
from sudoku_batch.jobs.table import Step
from sudoku_batch.store.progress import batches_of_key

router = APIRouter()
# Uploads: the key is checked before the body is read.
uploads = APIRouter(route_class=KeyBeforeBody)


@uploads.post("/batches", status_code=201, responses=UPLOAD_ERRORS)
def submit_batch(
    key_id: ApiKeyId,
    submit: Submit,
    files: Annotated[list[UploadFile], File(description="images, PDFs or zip archives")],
    label: Label = None,
) -> Submitted:
    """Store the files and queue them; answers the batch id at once."""
    return submit(files, label, key_id, Step.INGEST)


@router.get("/batches", responses=ERRORS)
def list_batches(
    key_id: ApiKeyId,
    db: Db,
    status: Annotated[str | None, Query(pattern="^(running|finished)$")] = None,
    limit: Limit = 50,
    offset: Offset = 0,
) -> BatchPage:
    """This key's batches, newest first; ``status``: running or finished."""
    finished = None if status is None else status == "finished"
    total, rows = batches_of_key(db, key_id, finished, limit, offset)
    items = [
        BatchSummary(
            batch_id=batch.public_id,
            label=batch.label,
            created_at=batch.created_at,
            finished=done,
            status=f"/batches/{batch.public_id}",
        )
        for batch, done in rows
    ]
    return BatchPage(items=items, total=total, limit=limit, offset=offset)


@router.get("/batches/{batch_id}", responses=NOT_FOUND)
async def get_batch(
    batch_id: UUID,
    key_id: ApiKeyId,
    sessions: Sessions,
    since: Annotated[
        str | None,
        Query(max_length=200, description="the `progress` of the last answer seen"),
    ] = None,
    wait: Annotated[
        float,
        Query(
            ge=0,
            le=MAX_WAIT_SECONDS,
            description="with `since`: hold the answer up to this many seconds until the "
            "batch's progress differs from `since` or the batch is finished",
        ),
    ] = 0,
    pace: Annotated[
        float,
        Query(
            ge=0,
            le=MAX_WAIT_SECONDS,
            description="with `since` and `wait`: answer a batch that moved no sooner than "
            "this many seconds after the request came (a finished one at once), so a "
            "follower asking again at once asks at most once a `pace`",
        ),
    ] = 0,
) -> BatchStatus:
    """Counts of input files, pages and puzzles per state, progress per stage (queued,
    running, done, failed, the longest wait), whether all is done, and a progress token
    (long polling: ``since``, ``wait`` and ``pace``)."""
    return await batch_status(sessions, batch_id, key_id, since, wait, pace)


router.include_router(uploads)
