"""A batch's progress token: a short string that changes whenever the batch's work moves, so
the API can hold a status request until it does (``GET /batches/{id}?since=TOKEN&wait=S``).

It is made of how many input files, pages and puzzles the batch has, how many of each are
unfinished, how many stage runs it has and when the last of them finished: a run done again
(after a correction, or a retry) replaces its row, so its count stays but the time moves. A
task taking a subject (queued to running) does not change it: that is the workers' own
bookkeeping, not the batch's work.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, bindparam, func, select, true
from sqlalchemy.orm import Session

from sudoku_batch.store.models import StageRun
from sudoku_batch.store.progress import (
    SUBJECT_KINDS,
    UNFINISHED_STATES,
    Runs,
    Subjects,
    unfinished_count,
)


@dataclass(frozen=True)
class Progress:
    known: tuple[int, ...]  # input files, pages, puzzles
    unfinished: tuple[int, ...]  # of them, those still waiting for a stage
    runs: int
    last_run: datetime | None  # when the last stage run finished

    @property
    def finished(self) -> bool:
        return sum(self.unfinished) == 0

    @property
    def token(self) -> str:
        """Opaque to clients: equal tokens, no work moved."""
        last = round(self.last_run.timestamp() * 1_000_000) if self.last_run else 0
        return ".".join(str(n) for n in (*self.known, *self.unfinished, self.runs, last))


def _progress_statement() -> Select[tuple[Any, ...]]:
    """One aggregate per table, each read through its batch_id index, joined into one row (each
    aggregate is exactly one row). Built once: building it cost more CPU than running it."""
    batch_id = bindparam("batch_id")
    counted = [
        select(
            func.count().label("known"),
            func.count().filter(model.status.in_(UNFINISHED_STATES[kind])).label("unfinished"),
        )
        .where(model.batch_id == batch_id)
        .subquery(kind)
        for kind, model in SUBJECT_KINDS.items()
    ]
    runs = (
        select(func.count().label("runs"), func.max(StageRun.finished_at).label("last_run"))
        .where(StageRun.batch_id == batch_id)
        .subquery("runs")
    )
    joined = runs
    for each in counted:
        joined = joined.join(each, true())
    columns = (c for each in counted for c in each.c)
    return select(runs.c.runs, runs.c.last_run, *columns).select_from(joined)


PROGRESS = _progress_statement()


def batch_progress(session: Session, batch_id: int) -> Progress:
    """The batch's progress in one statement."""
    runs, last_run, *numbers = session.execute(PROGRESS, {"batch_id": batch_id}).one()
    return Progress(tuple(numbers[0::2]), tuple(numbers[1::2]), runs, last_run)


def progress_of(subjects: Subjects, runs: Runs) -> Progress:
    """The same progress from the statements a full status answer makes anyway."""
    known = [sum(s.count for s in subjects[kind].values()) for kind in SUBJECT_KINDS]
    unfinished = [unfinished_count(subjects, kind) for kind in SUBJECT_KINDS]
    all_runs = [run for by_outcome in runs.values() for run in by_outcome.values()]
    finished_at = [run.last_finished for run in all_runs if run.last_finished is not None]
    return Progress(
        tuple(known),
        tuple(unfinished),
        sum(run.count for run in all_runs),
        max(finished_at, default=None),
    )
