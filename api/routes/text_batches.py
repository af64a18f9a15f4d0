"""``/text-batches``: text files of puzzles as a new batch, solved as written."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, UploadFile

from sudoku_batch.api.auth import ApiKeyId, KeyBeforeBody
from sudoku_batch.api.deps import Submit
from sudoku_batch.api.responses import UPLOAD_ERRORS
from sudoku_batch.api.schemas import Submitted
from sudoku_batch.api.submission import Box, Label, box_shape
from sudoku_batch.jobs.table import Step

# The key is checked before the body is read.
router = APIRouter(route_class=KeyBeforeBody)


@router.post("/text-batches", status_code=201, responses=UPLOAD_ERRORS)
def submit_text_batch(
    key_id: ApiKeyId,
    submit: Submit,
    files: Annotated[
        list[UploadFile],
        File(description="UTF-8 text files, one puzzle per line (the solve-text format)"),
    ],
    label: Label = None,
    box: Box = None,
) -> Submitted:
    """Store text files of puzzles and queue each line to be solved as written (no
    recognition): results are one record per line, ``page`` being the line number."""
    return submit(files, label, key_id, Step.INGEST_TEXT, box_shape(box))
