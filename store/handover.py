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
from typing import NamedTuple

from sqlalchemy import ColumnElement, and_, delete, or_, select, true, update
from sqlalchemy.orm import Session

from sudoku_batch.jobs.table import Step, job_step, job_steps
from sudoku_batch.jobs.table import Subject as JobSubject
from sudoku_batch.store.models import (
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
from sudoku_batch.store.record import TEXT_LINE_FORMAT, set_facts

Subject = InputFile | Page | Puzzle
# Each subject's table, and the statuses it may wait in (checked against the job's table).
MODELS: dict[JobSubject, type[Subject]] = {
    JobSubject.INPUT_FILE: InputFile,
    JobSubject.PAGE: Page,
    JobSubject.PUZZLE: Puzzle,
}
STATUSES = {InputFile: InputStatus, Page: PageStatus, Puzzle: PuzzleStatus}


class Waiting(NamedTuple):
    model: type[Subject]
    status: str


def waiting(step: Step) -> Waiting:
    """Which subjects wait for ``step``: its table, and their status (``jobs.table``)."""
    row = job_step(step)
    model = MODELS[row.subject]
    return Waiting(model, STATUSES[model](row.waits_in))


@dataclass(frozen=True)
class Handoff:
    step: Step
    subject_id: int
    label: str  # for people watching Flower: batch, file, page


@dataclass(frozen=True)
class Claimed:
    """A subject taken by a task, with where it comes from. Holding it keeps its rows in the
    session's identity map (which holds rows only weakly), so the loads that follow in the
    same session find them without another query."""

    row: Subject
    page: Page | None  # the page, or a puzzle's page; None for an input file
    label: str  # where it comes from, for Flower (see ``_labels``)


def claim(session: Session, step: Step, subject_id: int, incarnation: str | None) -> Claimed | None:
    """Take a waiting subject: it, if it still waits for ``step`` (it is now marked started by
    ``incarnation``), None if it is gone or past this step already."""
    return next(iter(claim_all(session, step, [subject_id], incarnation)), None)


def claim_all(
    session: Session, step: Step, subject_ids: list[int], incarnation: str | None
) -> list[Claimed]:
    """``claim`` for several subjects in one statement (and one or two for their labels): those
    that still wait for ``step``, in the order of ``subject_ids``."""
    model, status = waiting(step)
    rows = session.scalars(
        update(model)
        .where(model.id.in_(subject_ids), model.status == status)
        .values(started_at=utc_now(), claimed_by=incarnation)
        .returning(model)
    ).all()
    if not rows:
        return []
    rows = sorted(rows, key=lambda row: subject_ids.index(row.id))
    labels, pages = _labels(session, rows)
    return [
        Claimed(row, _page_of(row, pages), label) for row, label in zip(rows, labels, strict=True)
    ]


def _page_of(row: Subject, pages: dict[int, Page]) -> Page | None:
    if isinstance(row, Page):
        return row
    return pages[row.page_id] if isinstance(row, Puzzle) else None


def still_waiting(session: Session, step: Step, subject_id: int) -> Subject | None:
    """Lock the subject's row for this transaction; it, if it still waits for ``step``, so the
    caller's outcome may be recorded (one of two concurrent runs wins, the other drops)."""
    return all_still_waiting(session, step, [subject_id]).get(subject_id)


def all_still_waiting(session: Session, step: Step, subject_ids: list[int]) -> dict[int, Subject]:
    """``still_waiting`` for several subjects in one statement: those that still wait, by id."""
    model, status = waiting(step)
    rows = session.scalars(
        select(model)
        .where(model.id.in_(subject_ids))
        .order_by(model.id)  # rows locked in one order: no deadlock between two runs
        .with_for_update()
    )
    return {row.id: row for row in rows if row.status == status}


def sent(session: Session, step: Step, ids: list[int]) -> None:
    """Note that the messages for these subjects, committed as waiting for ``step`` with none
    sent, went out (now). A worker may take a message before this note is written: a subject
    its task has claimed meanwhile keeps its claim, and one it has moved on is left alone."""
    model, status = waiting(step)
    if ids:
        session.execute(
            update(model)
            .where(model.id.in_(ids), model.status == status, model.queued_at.is_(None))
            .values(queued_at=utc_now())
        )


def released(session: Session, step: Step, ids: list[int]) -> None:
    """Give up a task's claim on subjects it hands on unbegun in a message of their own: they
    wait for ``step`` again with no message sent (``sent`` notes the new one)."""
    model, status = waiting(step)
    if ids:
        session.execute(
            update(model)
            .where(model.id.in_(ids), model.status == status)
            .values(queued_at=None, started_at=None, claimed_by=None)
        )


def sent_again(session: Session, step: Step, ids: list[int]) -> None:
    """Note that the messages for these stranded subjects went out again (now), unclaimed: the
    caller holds their rows locked, so no task claims them before this note."""
    model, _ = waiting(step)
    if ids:
        session.execute(
            update(model)
            .where(model.id.in_(ids))
            .values(queued_at=utc_now(), started_at=None, claimed_by=None)
        )


def unsent(subject: Subject) -> None:
    """Mark a subject that moves on to its next step as waiting for a message not yet sent."""
    subject.queued_at = subject.started_at = subject.claimed_by = None


def taken_at_once(subject: Subject, incarnation: str | None) -> None:
    """Mark a subject that moves on to its next step as taken for it by ``incarnation`` at
    once, with no message and no wait: the task that made it wait goes on to that step."""
    subject.queued_at = subject.started_at = utc_now()
    subject.claimed_by = incarnation


def solve_again(session: Session, puzzle: Puzzle) -> None:
    """Send a solved (or failed) puzzle back to wait for the solve step, its verdict, solution
    and book-check facts dropped (a cell of it was corrected); the caller hands it over."""
    session.execute(delete(Solution).where(Solution.puzzle_id == puzzle.id))
    set_facts(puzzle, None)
    puzzle.status, puzzle.error_code, puzzle.message = PuzzleStatus.READ, None, None
    unsent(puzzle)


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
    for row in job_steps():
        step = row.step
        model, status = waiting(step)
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
            .where(model.status == status, _of_step(step), or_(*conditions))
            .order_by(model.id)
            .limit(limit - len(found))
            .with_for_update(skip_locked=True, of=model)
        )
        subjects = list(session.scalars(query))
        labels, _ = _labels(session, subjects)
        found += [Handoff(step, s.id, text) for s, text in zip(subjects, labels, strict=True)]
        if len(found) >= limit:
            break
    return found


def _of_step(step: Step) -> ColumnElement[bool]:
    """Which of the subjects waiting in a state go to ``step``: from a text file or not."""
    text = job_step(step).text
    if text is None:
        return true()
    model = MODELS[job_step(step).subject]
    if model is InputFile:
        return InputFile.is_text.is_(text)
    if model is Page:
        return (Page.format == TEXT_LINE_FORMAT) if text else (Page.format != TEXT_LINE_FORMAT)
    text_pages = select(Page.id).where(Page.format == TEXT_LINE_FORMAT)
    return Puzzle.page_id.in_(text_pages) if text else Puzzle.page_id.not_in(text_pages)


def puzzle_label(page_label: str, index_on_page: int) -> str:
    """A puzzle's label from its page's."""
    return f"{page_label} #{index_on_page}"


def _labels(session: Session, subjects: list[Subject]) -> tuple[list[str], dict[int, Page]]:
    """Where each subject comes from, in words: its batch (the start of its public id), then
    ``file scans.zip``, ``book.pdf p3`` or ``book.pdf p3 #1``; and the pages read for them.
    One or two queries, however many subjects."""
    public_ids: dict[int, object] = {}
    pages = {s.id: s for s in subjects if isinstance(s, Page)}
    of_puzzles = {s.page_id for s in subjects if isinstance(s, Puzzle)}
    if of_puzzles:
        query = select(Page, Batch.public_id).join(Batch, Batch.id == Page.batch_id)
        for page, public_id in session.execute(query.where(Page.id.in_(of_puzzles))):
            pages[page.id], public_ids[page.batch_id] = page, public_id
    if batch_ids := {s.batch_id for s in subjects} - public_ids.keys():
        query = select(Batch.id, Batch.public_id).where(Batch.id.in_(batch_ids))
        public_ids.update((batch_id, public_id) for batch_id, public_id in session.execute(query))
    labels = []
    for subject in subjects:
        batch = f"batch {str(public_ids[subject.batch_id])[:8]}"
        if isinstance(subject, InputFile):
            labels.append(f"{batch} file {subject.name}")
            continue
        page = pages[subject.id if isinstance(subject, Page) else subject.page_id]
        where = f"{batch} {page.source} p{page.page_number}"
        labels.append(
            puzzle_label(where, subject.index_on_page) if isinstance(subject, Puzzle) else where
        )
    return labels, pages


def labelled(session: Session, step: Step, ids: list[int]) -> list[Handoff]:
    model = waiting(step).model
    subjects = list(session.scalars(select(model).where(model.id.in_(ids)).order_by(model.id)))
    labels, _ = _labels(session, subjects)
    return [Handoff(step, s.id, text) for s, text in zip(subjects, labels, strict=True)]
