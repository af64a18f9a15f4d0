"""FastAPI app: talks only to the database (through ``store``) and the queue (by task name).

Run with ``uvicorn --factory api.app:create_app`` or ``sudoku-batch api``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

import kombu.exceptions
import redis.exceptions
from fastapi import Depends, FastAPI, File, Form, HTTPException, Request, UploadFile
from fastapi.responses import FileResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from settings import Settings
from store.artifacts import Artifacts
from store.db import make_engine, make_session_factory, transaction
from store.models import Solution
from store.record import add_input_file, create_batch
from store.results import BatchNotFound, batch_status, puzzle_result, result_records
from workers.app import TASK_INGEST, TASK_INGEST_TEXT, make_celery

BOX_PATTERN = r"^[1-9][0-9]?x[1-9][0-9]?$"


def _box_shape(text: str | None) -> tuple[int, int] | None:
    """``"2x3"`` as (2, 3): box rows, box columns."""
    if text is None:
        return None
    rows, cols = text.split("x")
    return int(rows), int(cols)


def _session(request: Request) -> Iterator[Session]:
    with request.app.state.sessions() as db:
        yield db


Db = Annotated[Session, Depends(_session)]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    sessions = make_session_factory(make_engine(settings.database_url))
    queue = make_celery(settings)
    artifacts = Artifacts(settings.data_dir)
    app = FastAPI(
        title="sudoku-batch",
        summary="Submit photos, scans and PDF books of Sudoku; get solved, verified puzzles.",
    )

    app.state.sessions = sessions

    def store_and_queue(
        files: list[UploadFile], label: str | None, task: str, box: tuple[int, int] | None = None
    ) -> dict[str, Any]:
        """Store the files as one batch and queue ``task`` for each; answers the batch id."""
        unnamed = [i for i, upload in enumerate(files) if not upload.filename]
        if unnamed:
            raise HTTPException(422, f"file #{unnamed[0] + 1} has no file name")
        with transaction(sessions) as db:
            batch_id = create_batch(db, label)
            inputs = []
            for ordinal, upload in enumerate(files):
                stored = artifacts.upload(batch_id, ordinal, upload.filename or "")
                artifacts.save_stream(stored, upload.file)
                inputs.append(
                    {
                        "id": add_input_file(db, batch_id, upload.filename or "", stored, box),
                        "name": upload.filename,
                    }
                )
        try:
            for input_file in inputs:
                queue.send_task(task, args=[input_file["id"]])
        except (kombu.exceptions.OperationalError, redis.exceptions.RedisError) as error:
            raise HTTPException(
                503, f"batch {batch_id} was stored but the work queue is unreachable: {error}"
            ) from error
        return {"batch_id": batch_id, "input_files": inputs, "status": f"/batches/{batch_id}"}

    @app.post("/batches", status_code=201)
    def submit_batch(
        files: Annotated[list[UploadFile], File(description="images, PDFs or zip archives")],
        label: Annotated[str | None, Form(max_length=200)] = None,
    ) -> dict[str, Any]:
        """Store the files and queue them; answers the batch id at once."""
        return store_and_queue(files, label, TASK_INGEST)

    @app.post("/text-batches", status_code=201)
    def submit_text_batch(
        files: Annotated[
            list[UploadFile],
            File(description="UTF-8 text files, one puzzle per line (the solve-text format)"),
        ],
        label: Annotated[str | None, Form(max_length=200)] = None,
        box: Annotated[
            str | None,
            Form(
                pattern=BOX_PATTERN,
                description="box shape ROWSxCOLS, e.g. 2x3 for 6x6 puzzles "
                "(default: the usual one for each puzzle's size)",
            ),
        ] = None,
    ) -> dict[str, Any]:
        """Store text files of puzzles and queue each line to be solved as written (no
        recognition): results are one record per line, ``page`` being the line number."""
        return store_and_queue(files, label, TASK_INGEST_TEXT, _box_shape(box))

    @app.get("/batches/{batch_id}")
    def get_batch(batch_id: int, db: Db) -> dict[str, Any]:
        """Counts of input files, pages and puzzles per state, and whether all are done."""
        try:
            return batch_status(db, batch_id)
        except BatchNotFound as error:
            raise HTTPException(404, str(error)) from error

    @app.get("/batches/{batch_id}/results")
    def get_results(batch_id: int, db: Db) -> list[dict[str, Any]]:
        """One record per grid found, and one per page without a grid."""
        try:
            return result_records(db, batch_id)
        except BatchNotFound as error:
            raise HTTPException(404, str(error)) from error

    @app.get("/puzzles/{puzzle_id}")
    def get_puzzle(puzzle_id: int, db: Db) -> dict[str, Any]:
        """A puzzle's result record with every cell's reading."""
        record = puzzle_result(db, puzzle_id)
        if record is None:
            raise HTTPException(404, f"there is no puzzle {puzzle_id}")
        return record

    @app.get("/puzzles/{puzzle_id}/render.png", response_class=FileResponse)
    def get_render(puzzle_id: int, db: Db) -> FileResponse:
        """The page region of the puzzle with the solution drawn in."""
        render_path = db.scalar(select(Solution.render_path).where(Solution.puzzle_id == puzzle_id))
        if render_path is None:
            raise HTTPException(
                404, f"puzzle {puzzle_id} has no render (not solved yet, or given as text)"
            )
        path = artifacts.path(render_path)
        if not path.is_file():
            raise HTTPException(404, f"the render of puzzle {puzzle_id} is missing from disk")
        return FileResponse(path, media_type="image/png")

    return app
