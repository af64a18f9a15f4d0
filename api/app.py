"""FastAPI app: talks only to the database (through ``store``) and the queue (by task name).

Run with ``uvicorn --factory api.app:create_app`` or ``sudoku-batch api``. Every route but
``/health`` needs an API key (``api.auth``); a batch is visible only to the key that made it,
and to every other key it does not exist (404). URLs carry UUIDs, never row ids. The review
pages under ``/ui/`` (``api.ui``) are served by the same app, with the same keys.
"""

from __future__ import annotations

import io
import logging
from typing import Annotated, Any
from uuid import UUID

import sqlalchemy.exc
from fastapi import APIRouter, FastAPI, File, HTTPException, Path, Query, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from sqlalchemy import select, text

from api.auth import ApiKeyId, KeyBeforeBody
from api.batch_status import MAX_WAIT_SECONDS, batch_status
from api.deps import Db, owned_batch, owned_puzzle, public_puzzle_ids
from api.headers import SecurityHeaders
from api.schemas import (
    BatchPage,
    BatchStatus,
    BatchSummary,
    CellCorrected,
    CellCorrectionRecord,
    CellEdit,
    Health,
    Problem,
    PuzzleDetail,
    ResultPage,
    ResultRecord,
    Submitted,
)
from api.submission import BROKER_ERRORS, DATABASE_ERRORS, Box, Label, Submission, box_shape
from api.ui import mount_ui
from api.ui_send import mount_send
from pipeline.board import CellKind
from reports.book_report import build_report
from reports.html import render_report_html
from settings import Settings
from store import data_folder
from store.artifacts import Artifacts, StorageFull, StorageUnavailable
from store.corrections import (
    BadCorrection,
    CellValue,
    Correction,
    CorrectionRefused,
    correct_cell,
    correction_history,
)
from store.db import make_engine, make_session_factory
from store.exports import write_csv
from store.handover import Step
from store.models import Batch, Solution
from store.progress import batches_of_key
from store.results import count_records, puzzle_result, result_records
from workers.app import make_celery
from workers.publish import hand_over

logger = logging.getLogger(__name__)

STATUS_PATTERN = r"^[a-z_]{1,40}$"
MAX_PAGE = 1000
MAX_OFFSET = 10**9  # past any listing, and well inside the database's bigint

# Every authenticated route can answer these; OpenAPI lists them with their schema.
ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": Problem, "description": "no valid API key"},
    503: {
        "model": Problem,
        "description": "the database or the data folder is unavailable; try again shortly",
    },
}
NOT_FOUND: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    404: {"model": Problem, "description": "no such batch or puzzle for this key"},
}
UPLOAD_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    413: {"model": Problem, "description": "a file or the request is over the size limit"},
    415: {"model": Problem, "description": "a file's content is not of an accepted kind"},
    422: {"model": Problem, "description": "the form is not valid"},
    507: {"model": Problem, "description": "no space left to store the files; nothing was kept"},
}


CORRECTION_ERRORS: dict[int | str, dict[str, Any]] = {
    **NOT_FOUND,
    403: {"model": Problem, "description": "sent with the login cookie but not by its pages"},
    409: {"model": Problem, "description": "the puzzle is being read or solved, or is text"},
    422: {"model": Problem, "description": "no such cell on this grid, or no such digit"},
}
GridIndex = Annotated[int, Path(ge=0, description="0-based, top (row) or left (col) first")]


def _correction_record(correction: Correction) -> CellCorrectionRecord:
    return CellCorrectionRecord(
        row=correction.row,
        col=correction.col,
        old={"kind": str(correction.old.kind), "digit": correction.old.digit},
        new={"kind": str(correction.new.kind), "digit": correction.new.digit},
        corrected_by=correction.corrected_by,
        corrected_at=correction.corrected_at,
    )


Limit = Annotated[int, Query(ge=1, le=MAX_PAGE)]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET)]


def _public_record(record: dict[str, Any], batch: Batch, public: dict[int, UUID]) -> dict:
    """A results record as clients see it: public ids, the render as a URL."""
    puzzle_id = public.get(record["puzzle_id"]) if record.get("puzzle_id") else None
    render = record.get("render_path")
    return {
        **record,
        "batch_id": batch.public_id,
        "puzzle_id": puzzle_id,
        "render_path": f"/puzzles/{puzzle_id}/render.png" if render and puzzle_id else None,
    }


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    sessions = make_session_factory(make_engine(settings.database_url))
    queue = make_celery(settings)
    data_folder.prepare(settings.data_dir)
    artifacts = Artifacts(settings.data_dir)
    app = FastAPI(
        title="sudoku-batch",
        summary="Submit photos, scans and PDF books of Sudoku; get solved, verified puzzles.",
        # Refused with 413 while it arrives, before it is spooled to disk.
        max_body_size=int(settings.max_request_mb * 2**20),
    )
    app.state.sessions = sessions
    submit = Submission(sessions, queue, artifacts, int(settings.max_file_mb * 2**20))
    app.add_middleware(SecurityHeaders)
    # Uploads: the key is checked before the body is read (api.auth.KeyBeforeBody).
    uploads = APIRouter(route_class=KeyBeforeBody)

    @app.exception_handler(sqlalchemy.exc.OperationalError)
    @app.exception_handler(sqlalchemy.exc.InterfaceError)
    async def database_down(_: Request, error: Exception) -> JSONResponse:
        logger.warning("database unreachable: %s", error)
        return JSONResponse(
            {"detail": "the database is unreachable; try again shortly"},
            status_code=503,
            headers={"Retry-After": "10"},
        )

    @app.exception_handler(StorageUnavailable)
    async def storage_down(_: Request, error: StorageUnavailable) -> JSONResponse:
        # The server's fault, not the request's: 507 when out of space, else 503.
        logger.error("data folder unavailable: %s", error.message)
        status = 507 if isinstance(error, StorageFull) else 503
        return JSONResponse(
            {"detail": error.message}, status_code=status, headers={"Retry-After": "60"}
        )

    @app.get("/health", response_model=Health, responses={503: {"model": Health}})
    def health() -> JSONResponse:
        """Whether the database and the broker answer and the data folder can be written (no
        key needed): 200, or 503 with what is wrong with the data folder."""
        problem = data_folder.problem(settings.data_dir)
        state = Health(database=False, broker=False, storage=problem is None, problem=problem)
        try:
            with sessions() as db:
                db.execute(text("SELECT 1"))
            state.database = True
        except DATABASE_ERRORS:
            pass
        try:
            with queue.connection_for_write() as connection:
                connection.ensure_connection(max_retries=1, interval_start=0, timeout=3)
            state.broker = True
        except BROKER_ERRORS:
            pass
        ok = state.database and state.broker and state.storage
        return JSONResponse(state.model_dump(), status_code=200 if ok else 503)

    @uploads.post("/batches", status_code=201, responses=UPLOAD_ERRORS)
    def submit_batch(
        key_id: ApiKeyId,
        files: Annotated[list[UploadFile], File(description="images, PDFs or zip archives")],
        label: Label = None,
    ) -> Submitted:
        """Store the files and queue them; answers the batch id at once."""
        return submit(files, label, key_id, Step.INGEST)

    @uploads.post("/text-batches", status_code=201, responses=UPLOAD_ERRORS)
    def submit_text_batch(
        key_id: ApiKeyId,
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

    app.include_router(uploads)

    @app.get("/batches", responses=ERRORS)
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

    @app.get("/batches/{batch_id}", responses=NOT_FOUND)
    async def get_batch(
        batch_id: UUID,
        key_id: ApiKeyId,
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

    @app.get("/batches/{batch_id}/results", responses=NOT_FOUND)
    def get_results(
        batch_id: UUID,
        key_id: ApiKeyId,
        db: Db,
        status: Annotated[
            str | None,
            Query(pattern=STATUS_PATTERN, description="only records of this status"),
        ] = None,
        confidence_below: Annotated[
            float | None, Query(ge=0, le=1, description="only grids read with less confidence")
        ] = None,
        limit: Limit = 100,
        offset: Offset = 0,
    ) -> ResultPage:
        """One record per grid found, one per page without a grid, in input order."""
        batch = owned_batch(db, batch_id, key_id)
        filters = {"status": status, "confidence_below": confidence_below}
        records = result_records(db, batch.id, **filters, limit=limit, offset=offset)
        public = public_puzzle_ids(db, batch)
        items = [ResultRecord.model_validate(_public_record(r, batch, public)) for r in records]
        total = count_records(db, batch.id, **filters)
        return ResultPage(items=items, total=total, limit=limit, offset=offset)

    @app.get(
        "/batches/{batch_id}/results.csv",
        response_class=Response,
        responses={**NOT_FOUND, 200: {"content": {"text/csv": {}}}},
    )
    def get_results_csv(batch_id: UUID, key_id: ApiKeyId, db: Db) -> Response:
        """Every results record as one CSV row (columns and grid alphabet: store.exports)."""
        batch = owned_batch(db, batch_id, key_id)
        public = public_puzzle_ids(db, batch)
        out = io.StringIO()
        write_csv((_public_record(r, batch, public) for r in result_records(db, batch.id)), out)
        return Response(
            out.getvalue(),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="results-{batch_id}.csv"'},
        )

    @app.get(
        "/batches/{batch_id}/report.html",
        response_class=HTMLResponse,
        responses={**NOT_FOUND, 200: {"content": {"text/html": {}}}},
    )
    def get_report(batch_id: UUID, key_id: ApiKeyId, db: Db) -> HTMLResponse:
        """The book check as one HTML page: summary (verdicts, levels, ratings, answer-key
        mismatches, duplicates, low-confidence readings) and every grid with what to fix."""
        batch = owned_batch(db, batch_id, key_id)
        return HTMLResponse(render_report_html(build_report(db, batch.id)))

    @app.get("/puzzles/{puzzle_id}", responses=NOT_FOUND)
    def get_puzzle(puzzle_id: UUID, key_id: ApiKeyId, db: Db) -> PuzzleDetail:
        """A puzzle's result record with every cell's reading."""
        puzzle, batch = owned_puzzle(db, puzzle_id, key_id)
        record = puzzle_result(db, puzzle.id)
        assert record is not None  # it was just found
        history = [_correction_record(c) for c in correction_history(db, puzzle.id)]
        return PuzzleDetail.model_validate(
            {
                **_public_record(record, batch, {puzzle.id: puzzle.public_id}),
                "corrections": history,
            }
        )

    @app.patch("/puzzles/{puzzle_id}/cells/{row}/{col}", responses=CORRECTION_ERRORS)
    def correct_puzzle_cell(
        puzzle_id: UUID, row: GridIndex, col: GridIndex, edit: CellEdit, key_id: ApiKeyId, db: Db
    ) -> CellCorrected:
        """Correct one cell: the correction is kept beside the reading (never replacing it),
        and the puzzle is solved again at once with every correction applied; follow its
        ``status`` in ``GET /puzzles/{puzzle_id}``."""
        puzzle, _ = owned_puzzle(db, puzzle_id, key_id)
        internal_id = puzzle.id
        try:
            correction = correct_cell(
                db, internal_id, row, col, CellValue(CellKind(edit.kind), edit.digit), key_id
            )
        except BadCorrection as error:
            raise HTTPException(422, error.message) from error
        except CorrectionRefused as error:
            raise HTTPException(409, error.message) from error
        db.commit()
        # Committed first, as for a submission: the sweep sends it should the queue be down.
        queued = True
        try:
            hand_over(queue, sessions, Step.SOLVE, [internal_id])
        except (*BROKER_ERRORS, *DATABASE_ERRORS) as error:
            logger.warning(
                "correction of puzzle %s stored; queue unreachable (%s)", puzzle_id, error
            )
            queued = False
        return CellCorrected(
            **_correction_record(correction).model_dump(),
            puzzle_id=puzzle_id,
            status="read",
            queued=queued,
        )

    @app.get(
        "/puzzles/{puzzle_id}/board.png",
        response_class=FileResponse,
        responses={**NOT_FOUND, 200: {"content": {"image/png": {}}}},
    )
    def get_board(puzzle_id: UUID, key_id: ApiKeyId, db: Db) -> FileResponse:
        """The board as read: cut from the page, squared and turned upright (the cells of
        ``GET /puzzles/{puzzle_id}`` are on its lattice)."""
        puzzle, _ = owned_puzzle(db, puzzle_id, key_id)
        if puzzle.board_image_path is None:
            raise HTTPException(404, f"puzzle {puzzle_id} has no board image (given as text)")
        path = artifacts.path(puzzle.board_image_path)
        if not path.is_file():
            raise HTTPException(404, f"the board image of puzzle {puzzle_id} is missing from disk")
        return FileResponse(path, media_type="image/png")

    @app.get(
        "/puzzles/{puzzle_id}/render.png",
        response_class=FileResponse,
        responses={**NOT_FOUND, 200: {"content": {"image/jpeg": {}, "image/png": {}}}},
    )
    def get_render(puzzle_id: UUID, key_id: ApiKeyId, db: Db) -> FileResponse:
        """The page region of the puzzle with the solution drawn in."""
        puzzle, _ = owned_puzzle(db, puzzle_id, key_id)
        render_path = db.scalar(select(Solution.render_path).where(Solution.puzzle_id == puzzle.id))
        if render_path is None:
            raise HTTPException(
                404, f"puzzle {puzzle_id} has no render (not solved yet, or given as text)"
            )
        path = artifacts.path(render_path)
        if not path.is_file():
            raise HTTPException(404, f"the render of puzzle {puzzle_id} is missing from disk")
        # JPEG since issue 13; renders of older batches are PNG. The URL stays as clients know it.
        media_type = "image/png" if path.suffix == ".png" else "image/jpeg"
        return FileResponse(path, media_type=media_type)

    mount_ui(app, artifacts)
    mount_send(app, submit)
    return app
