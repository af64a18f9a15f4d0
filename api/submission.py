"""Submitting a batch: the one path behind ``POST /batches``, ``POST /text-batches`` and the
review pages' send form (``api.ui_send``).

Each file is judged before anything is stored (its size, then its content by its first
bytes). A file that cannot be read is never stored but is recorded as failed beside the
others, so every unit of a bulk upload gets a record; a request holding nothing readable is
refused whole. The API refuses a whole request for a file over ``MAX_FILE_MB`` (413) or a
text file that is no text (415), as its clients expect; a person sending from the pages gets
those files recorded as failed with their reason instead (``each_alone``), and the others
go through.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Annotated

import kombu.exceptions
import redis.exceptions
import sqlalchemy.exc
from celery import Celery
from fastapi import Form, HTTPException, UploadFile
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.api.schemas import Submitted, SubmittedFile
from sudoku_batch.api.streamed_form import StagedFile
from sudoku_batch.api.uploads import base_name, is_media, not_media, size_refusal, text_refusal
from sudoku_batch.jobs.table import Step
from sudoku_batch.pipeline.errors import SudokuBatchError, TooLarge, UnsupportedInput
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.db import transaction
from sudoku_batch.store.models import Batch
from sudoku_batch.store.record import Stage, add_input_file, create_batch, record_failure
from sudoku_batch.store.storage import StorageUnavailable
from sudoku_batch.workers.publish import hand_over

logger = logging.getLogger(__name__)

BOX_SHAPE = r"[1-9][0-9]?x[1-9][0-9]?"  # ROWSxCOLS, as ``box_shape`` reads it
# PostgreSQL text holds no NUL character: refused here, not by the database.
Label = Annotated[str | None, Form(max_length=200, pattern=r"^[^\x00]*$")]
Box = Annotated[
    str | None,
    Form(
        pattern=f"^{BOX_SHAPE}$",
        description="box shape ROWSxCOLS, e.g. 2x3 for 6x6 puzzles "
        "(default: the usual one for each puzzle's size)",
    ),
]

BROKER_ERRORS = (kombu.exceptions.OperationalError, redis.exceptions.RedisError, OSError)
DATABASE_ERRORS = (sqlalchemy.exc.OperationalError, sqlalchemy.exc.InterfaceError)


def box_shape(value: str | None) -> tuple[int, int] | None:
    """``"2x3"`` as (2, 3): box rows, box columns."""
    if value is None:
        return None
    rows, cols = value.split("x")
    return int(rows), int(cols)


class NothingReadable(HTTPException):
    """A request none of whose files can be read: refused whole (413 if every file is over
    the size limit, else 415), each file's reason in ``files``."""

    def __init__(self, files: list[SubmittedFile]) -> None:
        too_large = all(f.error_code == TooLarge.code for f in files)
        super().__init__(413 if too_large else 415, files[0].message)
        self.files = files


@dataclass(frozen=True)
class Submission:
    sessions: sessionmaker[Session]
    queue: Celery
    artifacts: Artifacts
    max_file: int  # bytes

    def judge(self, upload: UploadFile, name: str, text: bool) -> SudokuBatchError | None:
        """Why ``upload`` cannot be read, or None: over the size limit, no text in a text
        batch, no image, PDF or zip in another."""
        too_large = size_refusal(upload, self.max_file)
        if too_large:
            return TooLarge(too_large)
        if text:
            no_text = text_refusal(upload)
            return UnsupportedInput(no_text) if no_text else None
        return None if is_media(upload) else not_media(upload, name)

    def _store(self, upload: UploadFile, key: str) -> None:
        if isinstance(upload.file, StagedFile):  # streamed into the store as it arrived
            self.artifacts.storage.move(upload.file.key, key)
        else:
            self.artifacts.save_stream(key, upload.file)

    def __call__(
        self,
        files: list[UploadFile],
        label: str | None,
        key_id: int,
        step: Step,
        box: tuple[int, int] | None = None,
        *,
        each_alone: bool = False,
    ) -> Submitted:
        """Store the files as one batch of ``key_id`` and queue ``step`` for each readable
        one; ``each_alone``: a file over the size limit or no text is recorded as failed
        instead of refusing the request."""
        text = step is Step.INGEST_TEXT
        names = [base_name(upload.filename) for upload in files]
        refusals = [
            self.judge(upload, name, text) for upload, name in zip(files, names, strict=True)
        ]
        if not each_alone:
            for refused in refusals:
                if isinstance(refused, TooLarge):
                    raise HTTPException(413, refused.message)
                if text and refused:
                    raise HTTPException(415, refused.message)
        judged = [
            SubmittedFile(
                name=name,
                error_code=refused.code if refused else None,
                message=refused.message if refused else None,
            )
            for name, refused in zip(names, refusals, strict=True)
        ]
        if all(refusals):
            raise NothingReadable(judged)
        written: list[str] = []
        try:
            with transaction(self.sessions) as db:
                batch_id = create_batch(db, label, key_id)
                input_ids = []
                for ordinal, (upload, name, refused) in enumerate(
                    zip(files, names, refusals, strict=True)
                ):
                    stored = self.artifacts.upload(batch_id, ordinal, name)
                    input_id = add_input_file(db, batch_id, name, stored, box, text=text)
                    if refused is None:
                        written.append(stored)  # before: a failed write leaves its folders
                        self._store(upload, stored)
                        input_ids.append(input_id)
                    else:
                        record_failure(db, refused, Stage.INGEST, input_file_id=input_id)
                public_id = db.get_one(Batch, batch_id).public_id
        except BaseException:
            # Nothing was committed: no file may stay behind without its row (unless the
            # store is what failed: then the original error is the one to report).
            try:
                self.artifacts.remove(written)
            except StorageUnavailable as fault:
                logger.warning("could not remove the files of a batch not stored: %s", fault)
            raise
        # Committed first: if the queue (or the database, to note them sent) is down now, the
        # recovery sweep sends these later. Either way the batch is stored: 201, not an error
        # that would make the client send it twice.
        queued = True
        try:
            hand_over(self.queue, self.sessions, step, input_ids)
        except (*BROKER_ERRORS, *DATABASE_ERRORS) as error:
            logger.warning("batch %s stored; queue unreachable (%s)", public_id, error)
            queued = False
        return Submitted(
            batch_id=public_id,
            input_files=judged,
            status=f"/batches/{public_id}",
            queued=queued,
        )
