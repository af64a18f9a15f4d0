"""What the routes of the API and of its pages share: a database session per request, and
what a key may see (its own batches and their puzzles; to any other key they do not exist:
404, so an id found elsewhere tells nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated
from uuid import UUID

from fastapi import Depends, HTTPException, Request
from sqlalchemy import select
from sqlalchemy.orm import Session

from store.models import Batch, Puzzle


def _session(request: Request) -> Iterator[Session]:
    with request.app.state.sessions() as db:
        yield db


Db = Annotated[Session, Depends(_session)]


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
