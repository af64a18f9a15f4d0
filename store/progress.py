"""Where a batch's work is, stage by stage, and the batches of one API key, newest first.

Derived from the subjects' rows alone (``store.handover``: waiting, claimed, when sent), so a
redelivered task cannot count twice, as Paperless-ngx's task rows do for its document queue.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    CompoundSelect,
    Select,
    bindparam,
    exists,
    func,
    literal_column,
    or_,
    select,
    true,
    union_all,
)
from sqlalchemy.orm import Session

from sudoku_batch.jobs.table import Stage, Subject, job_steps, stages
from sudoku_batch.store.handover import MODELS, waiting
from sudoku_batch.store.models import (
    Batch,
    Page,
    StageRun,
    utc_now,
)
from sudoku_batch.store.record import TEXT_LINE_FORMAT


@dataclass(frozen=True)
class StageProgress:
    queued: int  # waiting for the stage, not yet taken by a worker
    running: int  # taken by a worker (or waiting for a retry)
    done: int
    failed: int
    oldest_wait_seconds: float | None  # the longest any queued subject has waited so far
    mean_wait_seconds: float | None  # from sent to taken, over the stage's finished runs
    done_inline: int = 0  # of done, run inline in an earlier stage's task (a solve in OCR's)


@dataclass(frozen=True)
class SubjectState:
    """The input files, pages or puzzles of a batch in one status."""

    count: int
    queued: int  # of those its stage counts, not yet taken by a worker
    running: int  # of those its stage counts, taken by a worker
    oldest_queued: datetime | None


@dataclass(frozen=True)
class RunState:
    """A batch's stage runs of one stage and outcome (ok, failed)."""

    count: int
    inline: int  # run in another stage's task (``StageRun.task``)
    mean_wait: float | None
    last_finished: datetime | None


# The subjects of a batch as SubjectStates by kind ("inputs", "pages", "puzzles"), then status.
Subjects = dict[str, dict[str, SubjectState]]
# A batch's stage runs as RunStates by stage, then outcome.
Runs = dict[str, dict[str, RunState]]

# Each subject of a batch by its kind's name in the progress ("inputs", "pages", "puzzles").
KINDS = {Subject.INPUT_FILE: "inputs", Subject.PAGE: "pages", Subject.PUZZLE: "puzzles"}
SUBJECT_KINDS = {KINDS[subject]: model for subject, model in MODELS.items()}
# What a batch still has to do: its subjects of each kind in the states they wait for a step in.
UNFINISHED_STATES = {
    kind: tuple(
        dict.fromkeys(waiting(row.step).status for row in job_steps() if row.subject is subject)
    )
    for subject, kind in KINDS.items()
}


def waiting_for(stage: Stage) -> tuple[str, str]:
    """Which subjects wait for ``stage``: their kind and status (those of its first step)."""
    row = next(row for row in job_steps() if row.stage == stage)
    return KINDS[row.subject], waiting(row.step).status


def _subject_states() -> CompoundSelect:
    """Every subject of a batch counted by kind and status, with what waits for a stage split
    into queued and running: one grouped query per table (each read by its batch index)."""
    kinds = []
    for kind, model in SUBJECT_KINDS.items():
        # A text line's page is never rectified: the rectify stage does not count it.
        staged = Page.format != TEXT_LINE_FORMAT if model is Page else true()
        queued = model.started_at.is_(None) & staged
        running = model.started_at.is_not(None) & staged
        query = select(
            literal_column(f"'{kind}'").label("kind"),
            model.status,
            func.count(),
            func.count().filter(queued),
            func.count().filter(running),
            func.min(model.queued_at).filter(queued),
        )
        kinds.append(query.where(model.batch_id == bindparam("batch_id")).group_by(model.status))
    return union_all(*kinds)


def _run_states() -> Select[tuple[Any, ...]]:
    """A batch's stage runs counted by stage and outcome."""
    return (
        select(
            StageRun.stage,
            StageRun.status,
            func.count(),
            func.count().filter(StageRun.task != StageRun.stage),
            func.avg(StageRun.waited_seconds),
            func.max(StageRun.finished_at),
        )
        .where(StageRun.batch_id == bindparam("batch_id"))
        .group_by(StageRun.stage, StageRun.status)
    )


# Built once: building a statement costs more CPU than running it on a batch of a few hundred
# puzzles, and the status is asked for often.
SUBJECT_STATES = _subject_states()
RUN_STATES = _run_states()


def subject_states(session: Session, batch_id: int) -> Subjects:
    """The batch's subjects by kind and status: one statement."""
    states: Subjects = {kind: {} for kind in SUBJECT_KINDS}
    for kind, status, *counts in session.execute(SUBJECT_STATES, {"batch_id": batch_id}):
        states[kind][status] = SubjectState(*counts)
    return states


def run_states(session: Session, batch_id: int) -> Runs:
    """The batch's stage runs by stage and outcome: one statement."""
    runs: Runs = {}
    for stage, status, *counts in session.execute(RUN_STATES, {"batch_id": batch_id}):
        runs.setdefault(stage, {})[status] = RunState(*counts)
    return runs


def unfinished_count(subjects: Subjects, kind: str) -> int:
    """How many of a batch's subjects of ``kind`` ("inputs", ...) still wait for a stage."""
    states = subjects[kind]
    return sum(states[state].count for state in UNFINISHED_STATES[kind] if state in states)


def stages_of(subjects: Subjects, runs: Runs, now: datetime | None = None) -> dict:
    """Progress per stage (``StageProgress`` by stage name) from a batch's subjects and runs."""
    now = now or utc_now()
    progress = {}
    for stage in stages():
        kind, status = waiting_for(stage)
        waiting = subjects[kind].get(status, SubjectState(0, 0, 0, None))
        oldest = waiting.oldest_queued
        ok = runs.get(stage, {}).get("ok", RunState(0, 0, None, None))
        failed = runs.get(stage, {}).get("failed", RunState(0, 0, None, None))
        progress[str(stage)] = StageProgress(
            queued=waiting.queued,
            running=waiting.running,
            done=ok.count,
            failed=failed.count,
            oldest_wait_seconds=round((now - oldest).total_seconds(), 1) if oldest else None,
            mean_wait_seconds=round(float(ok.mean_wait), 2) if ok.mean_wait is not None else None,
            done_inline=ok.inline,
        )
    return progress


def stage_progress(session: Session, batch_id: int, now: datetime | None = None) -> dict:
    """Progress per stage (``StageProgress`` by stage name) of a batch: two statements."""
    return stages_of(subject_states(session, batch_id), run_states(session, batch_id), now)


def unfinished(batch_id: ColumnElement[int]) -> ColumnElement[bool]:
    """True for a batch with any input file, page or puzzle still waiting for a stage."""
    return or_(
        *(
            exists().where(model.batch_id == batch_id, model.status.in_(UNFINISHED_STATES[kind]))
            for kind, model in SUBJECT_KINDS.items()
        )
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
