"""What the routes of the API and of its pages share: what ``create_app`` built (settings,
sessions, queue, stored files, submission; kept on ``app.state``), a database session per
request, paging, and what a key may see (its own batches and their puzzles; to any other key
they do not exist: 404, so an id found elsewhere tells nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any
from uuid import UUID

from celery import Celery
from fastapi import Depends, HTTPException, Query, Request
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.api.submission import Submission
from sudoku_batch.settings import Settings
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.models import Batch, Puzzle

MAX_PAGE = 1000
MAX_OFFSET = 10**9  # past any listing, and well inside the database's bigint


async def _settings(request: Request) -> Settings:
    return request.app.state.settings


async def _sessions(request: Request) -> sessionmaker[Session]:
    return request.app.state.sessions


async def _queue(request: Request) -> Celery:
    return request.app.state.queue


async def _artifacts(request: Request) -> Artifacts:
    return request.app.state.artifacts


async def _submission(request: Request) -> Submission:
    return request.app.state.submit


def _session(request: Request) -> Iterator[Session]:
    with request.app.state.sessions() as db:
        yield db


AppSettings = Annotated[Settings, Depends(_settings)]
Sessions = Annotated[sessionmaker[Session], Depends(_sessions)]
Queue = Annotated[Celery, Depends(_queue)]
StoredFiles = Annotated[Artifacts, Depends(_artifacts)]
Submit = Annotated[Submission, Depends(_submission)]
Db = Annotated[Session, Depends(_session)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE)]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET)]


def owned_batch(db: Session, batch_id: UUID, key_id: int) -> Batch:
    batch = db.scalar(select(Batch).where(Batch.public_id == batch_id, Batch.api_key_id == key_id))
    if batch is None:
        raise HTTPException(404, f"there is no batch {batch_id}")
    return batch


def owned_puzzle(db: Session, puzzle_id: UUID, key_id: int) -> tuple[Puzzle, Batch]:
    row = db.execute(
        select(Puzzle, Batch)
        .join(Batch, Batch.id == Puzzle.batch_id)
        .where(Puzzle.public_id == puzzle_id, Batch.api_key_id == key_id)
    ).first()
    if row is None:
        raise HTTPException(404, f"there is no puzzle {puzzle_id}")
    return row[0], row[1]


def public_puzzle_ids(db: Session, batch: Batch) -> dict[int, UUID]:
    ids = select(Puzzle.id, Puzzle.public_id).where(Puzzle.batch_id == batch.id)
    return {row_id: public_id for row_id, public_id in db.execute(ids)}


def public_record(record: dict[str, Any], batch: Batch, public: dict[int, UUID]) -> dict:
    """A results record as clients see it: public ids, the render as a URL."""
    puzzle_id = public.get(record["puzzle_id"]) if record.get("puzzle_id") else None
    render = record.get("render_path")
    return {
        **record,
        "batch_id": batch.public_id,
        "puzzle_id": puzzle_id,
        "render_path": f"/puzzles/{puzzle_id}/render.png" if render and puzzle_id else None,
    }
