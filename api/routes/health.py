"""``/health``: whether the services the API needs answer (no key needed)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from sudoku_batch.api.deps import Queue, Sessions, StoredFiles
from sudoku_batch.api.schemas import Health
from sudoku_batch.api.submission import BROKER_ERRORS, DATABASE_ERRORS

router = APIRouter()


@router.get("/health", response_model=Health, responses={503: {"model": Health}})
def health(sessions: Sessions, queue: Queue, artifacts: StoredFiles) -> JSONResponse:
    """Whether the database and the broker answer and the store (the data folder, or object
    storage) can be written (no key needed): 200, or 503 with what is wrong with the store."""
    problem = artifacts.storage.problem()
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
