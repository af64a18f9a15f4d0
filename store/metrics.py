"""What the server's ``/metrics`` reports, read from the rows at each scrape (as a database
exporter does): the subjects waiting for each stage, the stage runs' durations, the outcomes by
error code, the batches in flight. Every figure is server-wide, over every batch the database
holds; the API turns them into Prometheus metric families (``api.routes.metrics``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, true
from sqlalchemy.orm import Session

from sudoku_batch.jobs.table import Stage, stages
from sudoku_batch.store.models import Batch, Page, StageRun, utc_now
from sudoku_batch.store.progress import SUBJECT_KINDS, unfinished, waiting_for
from sudoku_batch.store.record import TEXT_LINE_FORMAT

# Upper bounds of the stage run histograms' buckets, seconds: a board's OCR takes a fraction of
# a second, a page's rectify about one, a hard grid's solve up to its timeout.
RUN_SECONDS_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)


@dataclass(frozen=True)
class StageQueue:
    queued: int  # waiting for the stage, not yet taken by a worker
    running: int  # taken by a worker
    oldest_queued: datetime | None  # when the longest-waiting queued subject was sent


@dataclass(frozen=True)
class RunDurations:
    """The stage runs of one stage and task (``StageRun.task``, "" when none) as a histogram."""

    stage: str
    task: str
    cumulative: tuple[int, ...]  # runs at or under each of RUN_SECONDS_BUCKETS
    count: int
    total_seconds: float


@dataclass(frozen=True)
class Outcome:
    subject: str  # inputs, pages, puzzles
    status: str
    error_code: str  # "" when none
    count: int


def stage_queues(session: Session) -> dict[Stage, StageQueue]:
    """Every stage's waiting subjects, over all batches: one statement a stage."""
    queues = {}
    for stage in stages():
        kind, status = waiting_for(stage)
        model = SUBJECT_KINDS[kind]
        # A text line's page is never rectified: the rectify stage does not count it.
        staged = Page.format != TEXT_LINE_FORMAT if model is Page else true()
        queued = model.started_at.is_(None)
        row = session.execute(
            select(
                func.count().filter(queued),
                func.count().filter(~queued),
                func.min(model.queued_at).filter(queued),
            ).where(model.status == status, staged)
        ).one()
        queues[stage] = StageQueue(*row)
    return queues


def oldest_wait_seconds(queue: StageQueue, now: datetime | None = None) -> float:
    """How long the longest-waiting queued subject has waited; 0 when none waits."""
    if queue.oldest_queued is None:
        return 0.0
    return max(0.0, ((now or utc_now()) - queue.oldest_queued).total_seconds())


def run_durations(session: Session) -> list[RunDurations]:
    """The stage runs' durations by stage and task, bucketed: one statement."""
    task = func.coalesce(StageRun.task, "")
    buckets = [func.count().filter(StageRun.seconds <= bound) for bound in RUN_SECONDS_BUCKETS]
    rows = session.execute(
        select(StageRun.stage, task, func.count(), func.coalesce(func.sum(StageRun.seconds), 0.0))
        .add_columns(*buckets)
        .group_by(StageRun.stage, task)
        .order_by(StageRun.stage, task)
    )
    return [
        RunDurations(stage, ran_in, tuple(cumulative), count, float(total))
        for stage, ran_in, count, total, *cumulative in rows
    ]


def outcomes(session: Session) -> list[Outcome]:
    """The input files, pages and puzzles by status and error code: one statement a table."""
    found = []
    for kind, model in SUBJECT_KINDS.items():
        code = func.coalesce(model.error_code, "")
        rows = session.execute(
            select(model.status, code, func.count()).group_by(model.status, code)
        )
        found += [Outcome(kind, status, error_code, count) for status, error_code, count in rows]
    return found


def batches_in_flight(session: Session) -> int:
    """Batches with any input file, page or puzzle still waiting for a stage."""
    return session.scalar(select(func.count()).select_from(Batch).where(unfinished(Batch.id))) or 0
