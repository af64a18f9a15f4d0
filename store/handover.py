"""Hand-overs between stages, kept in the database so that no message is the only record of
work to do.

A subject (input file, page, puzzle) waits for one step in one state: a pending input file for
ingest, a pending page for rectify, a pending puzzle for OCR, a read puzzle for solve. A task
*claims* its subject (only while it waits), and commits its outcome only if the subject still
waits (``still_waiting``, under a row lock), so a redelivered or duplicated message never
redoes or undoes what is final. Every subject also says when its message was sent
(``queued_at``, None until it was) and which worker incarnation took it, which lets the
recovery sweep (``workers.sweep``) find the stranded ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import ColumnElement, and_, delete, or_, select, update
from sqlalchemy.orm import Session

from store.models import (
    Batch,
    InputFile,
    InputStatus,
    Page,
    PageStatus,
    Puzzle,
    PuzzleStatus,
    Solution,
    WorkerHeartbeat,
    utc_now,
)
from store.record import TEXT_LINE_FORMAT, set_facts

Subject = InputFile | Page | Puzzle


class Step(StrEnum):
    """Each step's Celery task name: what a waiting subject is handed to."""

    INGEST = "sudoku_batch.ingest"
    INGEST_TEXT = "sudoku_batch.ingest_text"
    RECTIFY = "sudoku_batch.rectify"
    OCR = "sudoku_batch.ocr"
    SOLVE = "sudoku_batch.solve"
    SOLVE_TEXT = "sudoku_batch.solve_text"


@dataclass(frozen=True)
class Waiting:
    model: type[Subject]
    status: str


WAITING = {
    Step.INGEST: Waiting(InputFile, InputStatus.PENDING),
    Step.INGEST_TEXT: Waiting(InputFile, InputStatus.PENDING),
    Step.RECTIFY: Waiting(Page, PageStatus.PENDING),
    Step.OCR: Waiting(Puzzle, PuzzleStatus.PENDING),
    Step.SOLVE: Waiting(Puzzle, PuzzleStatus.READ),
    Step.SOLVE_TEXT: Waiting(Puzzle, PuzzleStatus.READ),
}


@dataclass(frozen=True)
class Handoff:
    step: Step
    subject_id: int
    label: str  # for people watching Flower: batch, file, page


def claim(session: Session, step: Step, subject_id: int, incarnation: str | None) -> bool:
    """Take a waiting subject: True if it still waits for ``step`` (it is now marked started
    by ``incarnation``), False if it is gone or past this step already."""
    waiting = WAITING[step]
    claimed = session.execute(
        update(waiting.model)
        .where(waiting.model.id == subject_id, waiting.model.status == waiting.status)
        .values(started_at=utc_now(), claimed_by=incarnation)
        .returning(waiting.model.id)
    ).first()
    return claimed is not None


def still_waiting(session: Session, step: Step, subject_id: int) -> bool:
    """Lock the subject's row for this transaction; True if it still waits for ``step``, so
    the caller's outcome may be recorded (one of two concurrent runs wins, the other drops)."""
    waiting = WAITING[step]
    status = session.scalar(
        select(waiting.model.status).where(waiting.model.id == subject_id).with_for_update()
    )
    return status == waiting.status


def sent(session: Session, model: type[Subject], ids: list[int]) -> None:
    """Note that the messages for these subjects went out (now), unclaimed."""
    if ids:
        session.execute(
            update(model)
            .where(model.id.in_(ids))
            .values(queued_at=utc_now(), started_at=None, claimed_by=None)
        )


def unsent(session: Session, model: type[Subject], ids: list[int]) -> None:
    """Mark subjects that move on to their next step as waiting for a message not yet sent."""
    if ids:
        session.execute(
            update(model)
            .where(model.id.in_(ids))
            .values(queued_at=None, started_at=None, claimed_by=None)
        )


def solve_again(session: Session, puzzle: Puzzle) -> None:
    """Send a solved (or failed) puzzle back to wait for the solve step, its verdict, solution
    and book-check facts dropped (a cell of it was corrected); the caller hands it over."""
    session.execute(delete(Solution).where(Solution.puzzle_id == puzzle.id))
    set_facts(puzzle, None)
    puzzle.status, puzzle.error_code, puzzle.message = PuzzleStatus.READ, None, None
    unsent(session, Puzzle, [puzzle.id])


@dataclass(frozen=True)
class Deadlines:
    """When a waiting subject counts as stranded (see ``stranded``)."""

    lost_after: timedelta  # queued, never started, and its queue is empty
    dead_after: timedelta  # its worker incarnation stopped beating this long ago
    reclaim_after: timedelta  # claimed this long ago: longer than any run and retry delay


def stranded(
    session: Session,
    deadlines: Deadlines,
    empty_steps: set[Step],
    now: datetime | None = None,
    limit: int = 500,
) -> list[Handoff]:
    """Waiting subjects that no message will reach, oldest first, locked (SKIP LOCKED, so
    concurrent sweeps split them) until the caller's transaction ends:

    - never sent: stored, but publishing failed (the broker was down) or never happened;
    - sent more than ``lost_after`` ago, never started, and its step's queue is empty (in
      ``empty_steps``): the message was lost, e.g. with a Redis that kept nothing;
    - claimed by a worker incarnation not heard from for ``dead_after``: the worker died, and
      its unacknowledged message would come back only after the visibility timeout;
    - claimed more than ``reclaim_after`` ago: longer than any run with its retry delay, so
      its retry message was lost (publishing it failed while Redis was down).
    """
    now = now or utc_now()
    alive = select(WorkerHeartbeat.incarnation).where(
        WorkerHeartbeat.last_seen > now - deadlines.dead_after
    )
    found: list[Handoff] = []
    for step, waiting in WAITING.items():
        model = waiting.model
        conditions: list[ColumnElement[bool]] = [
            model.queued_at.is_(None),
            and_(
                model.started_at.is_not(None),
                or_(
                    model.claimed_by.is_(None),
                    model.claimed_by.not_in(alive),
                    model.started_at < now - deadlines.reclaim_after,
                ),
                # A claim newer than a heartbeat interval may be a worker not yet beating.
                model.started_at < now - deadlines.dead_after,
            ),
        ]
        if step in empty_steps:
            conditions.append(
                and_(model.started_at.is_(None), model.queued_at < now - deadlines.lost_after)
            )
        query = (
            select(model)
            .where(model.status == waiting.status, _of_step(step), or_(*conditions))
            .order_by(model.id)
            .limit(limit - len(found))
            .with_for_update(skip_locked=True, of=model)
        )
        subjects = list(session.scalars(query))
        found += [Handoff(step, s.id, label(session, s)) for s in subjects]
        if len(found) >= limit:
            break
    return found


def _of_step(step: Step) -> ColumnElement[bool]:
    """Which of the subjects waiting in a state go to ``step`` (text or image work)."""
    text_pages = select(Page.id).where(Page.format == TEXT_LINE_FORMAT)
    match step:
        case Step.INGEST:
            return InputFile.is_text.is_(False)
        case Step.INGEST_TEXT:
            return InputFile.is_text.is_(True)
        case Step.RECTIFY:
            return Page.format != TEXT_LINE_FORMAT
        case Step.OCR:
            return Puzzle.id.is_not(None)
        case Step.SOLVE:
            return Puzzle.page_id.not_in(text_pages)
        case Step.SOLVE_TEXT:
            return Puzzle.page_id.in_(text_pages)


def label(session: Session, subject: Subject) -> str:
    """Where a subject comes from, in words: its batch (the start of its public id), then
    ``file scans.zip``, ``book.pdf p3`` or ``book.pdf p3 #1``."""
    batch = session.get_one(Batch, subject.batch_id)
    return f"batch {str(batch.public_id)[:8]} {_where(session, subject)}"


def _where(session: Session, subject: Subject) -> str:
    if isinstance(subject, InputFile):
        return f"file {subject.name}"
    if isinstance(subject, Page):
        return f"{subject.source} p{subject.page_number}"
    page = session.get_one(Page, subject.page_id)
    return f"{page.source} p{page.page_number} #{subject.index_on_page}"


def labelled(session: Session, step: Step, ids: list[int]) -> list[Handoff]:
    model = WAITING[step].model
    subjects = session.scalars(select(model).where(model.id.in_(ids)).order_by(model.id))
    return [Handoff(step, s.id, label(session, s)) for s in subjects]
