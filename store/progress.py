"""Where a batch's work is, stage by stage, and the batches of one API key, newest first.

Derived from the subjects' rows alone (``store.handover``: waiting, claimed, when sent), so a
redelivered task cannot count twice, as Paperless-ngx's task rows do for its document queue.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, exists, func, or_, select
from sqlalchemy.orm import Session

from store.models import (
    Batch,
    InputFile,
    InputStatus,
    Page,
    PageStatus,
    Puzzle,
    PuzzleStatus,
    StageRun,
    utc_now,
)
from store.record import TEXT_LINE_FORMAT
from store.stage import Stage


@dataclass(frozen=True)
class StageProgress:
    queued: int  # waiting for the stage, not yet taken by a worker
    running: int  # taken by a worker (or waiting for a retry)
    done: int
    failed: int
    oldest_wait_seconds: float | None  # the longest any queued subject has waited so far
    mean_wait_seconds: float | None  # from sent to taken, over the stage's finished runs


def _waiting(stage: Stage) -> tuple[type[InputFile | Page | Puzzle], ColumnElement[bool]]:
    match stage:
        case Stage.INGEST:
            return InputFile, InputFile.status == InputStatus.PENDING
        case Stage.RECTIFY:
            return Page, (Page.status == PageStatus.PENDING) & (Page.format != TEXT_LINE_FORMAT)
        case Stage.OCR:
            return Puzzle, Puzzle.status == PuzzleStatus.PENDING
        case Stage.SOLVE:
            return Puzzle, Puzzle.status == PuzzleStatus.READ


def stage_progress(session: Session, batch_id: int, now: datetime | None = None) -> dict:
    now = now or utc_now()
    runs = {
        f"{stage}:{status}": (count, waited)
        for stage, status, count, waited in session.execute(
            select(StageRun.stage, StageRun.status, func.count(), func.avg(StageRun.waited_seconds))
            .where(StageRun.batch_id == batch_id)
            .group_by(StageRun.stage, StageRun.status)
        )
    }
    progress = {}
    for stage in Stage:
        model, waiting = _waiting(stage)
        queued, running, oldest = session.execute(
            select(
                func.count().filter(model.started_at.is_(None)),
                func.count().filter(model.started_at.is_not(None)),
                func.min(model.queued_at).filter(model.started_at.is_(None)),
            ).where(model.batch_id == batch_id, waiting)
        ).one()
        done, mean_wait = runs.get(f"{stage}:ok", (0, None))
        progress[str(stage)] = StageProgress(
            queued=queued,
            running=running,
            done=done,
            failed=runs.get(f"{stage}:failed", (0, None))[0],
            oldest_wait_seconds=round((now - oldest).total_seconds(), 1) if oldest else None,
            mean_wait_seconds=round(float(mean_wait), 2) if mean_wait is not None else None,
        )
    return progress


def unfinished(batch_id: ColumnElement[int]) -> ColumnElement[bool]:
    """True for a batch with any input file, page or puzzle still waiting for a stage."""
    return or_(
        exists().where(InputFile.batch_id == batch_id, InputFile.status == InputStatus.PENDING),
        exists().where(Page.batch_id == batch_id, Page.status == PageStatus.PENDING),
        exists().where(
            Puzzle.batch_id == batch_id,
            Puzzle.status.in_([PuzzleStatus.PENDING, PuzzleStatus.READ]),
        ),
    )


def batches_of_key(
    session: Session, api_key_id: int, finished: bool | None, limit: int, offset: int
) -> tuple[int, list[tuple[Batch, bool]]]:
    """(how many match, one page of (batch, finished)) for a key, newest first."""
    running = unfinished(Batch.id)
    query = select(Batch).where(Batch.api_key_id == api_key_id)
    if finished is not None:
        query = query.where(~running if finished else running)
    total = session.scalar(select(func.count()).select_from(query.subquery())) or 0
    rows = session.execute(
        query.add_columns(~running)
        .order_by(Batch.created_at.desc(), Batch.id.desc())
        .limit(limit)
        .offset(offset)
    ).all()
    return total, [(batch, bool(done)) for batch, done in rows]
