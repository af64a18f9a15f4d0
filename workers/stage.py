"""How every stage task treats errors, so each task module holds only its stage's steps.

- A ``SudokuBatchError`` (bad page, no grid, engine missing...) is recorded at once as the
  subject's failure with its user-facing message; the batch goes on.
- A transient error (database or Redis unreachable; the data folder full, read-only, missing
  or without a file the database says is stored) is retried with exponential backoff
  (capped at ``OUTAGE_BACKOFF_MAX``) for as long as the outage lasts, never recorded as the
  subject's failure: the task is idempotent, so running it again is safe. If even the retry
  cannot be sent (Redis down too), the recovery sweep hands the subject out again.
- A task works only on a subject that still waits for it (``store.handover.claim``) and
  records its outcome only if the subject still waits when it commits: a redelivered or
  duplicated message never redoes or undoes a final outcome.
- Anything else is a bug or a fluke: retried a couple of times, then recorded as failed with
  a message that says so, so the batch still finishes.
- A task that fails for good all the same (killed at its hard time limit, its worker process
  lost once too often) is recorded by the ``task_failure`` handler below, so no input file,
  page or puzzle is left pending for ever.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import kombu.exceptions
import redis.exceptions
import sqlalchemy.exc
from celery import Celery, Task
from celery.exceptions import Retry, SoftTimeLimitExceeded, TimeLimitExceeded, WorkerLostError
from celery.signals import task_failure
from sqlalchemy.orm import Session

from sudoku_batch.jobs.steps import Clock
from sudoku_batch.jobs.table import Stage, Step, Subject, job_step
from sudoku_batch.pipeline.errors import InternalError, SudokuBatchError
from sudoku_batch.store.db import transaction
from sudoku_batch.store.handover import Claimed, all_still_waiting, claim, still_waiting
from sudoku_batch.store.record import record_failure
from sudoku_batch.store.storage import StorageUnavailable
from sudoku_batch.workers import runtime

logger = logging.getLogger(__name__)

TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    kombu.exceptions.OperationalError,
    StorageUnavailable,  # the deployment's fault, never the input's (store.artifacts)
)
UNEXPECTED_ERROR_RETRIES = 2
UNEXPECTED_ERROR_DELAY = 5.0  # seconds, doubled on each retry
# Outage retries go on until the outage ends; this only keeps Celery's counter finite.
OUTAGE_RETRIES = 1_000_000


class StageTimedOut(SudokuBatchError):
    code = "stage_timeout"

    @classmethod
    def of(cls, stage: Stage) -> StageTimedOut:
        return cls(f"the {stage} stage took too long and was stopped")


class WorkerLost(SudokuBatchError):
    """The process running a stage died (killed for memory, or crashed) on every try."""

    code = "worker_lost"


class StageTask(Task):
    """A stage task: its one argument is the id of its ``subject`` (a list of them for a
    listed step), which waits for ``step``; made by ``stage_task``, which sets the rest from
    the job's table."""

    step: Step
    stage: Stage
    subject: Subject
    then: Step | None  # where its subjects go next
    # Counts the retries of a task whose process died (and unexpected errors, bounded below);
    # outage retries are not bounded (OUTAGE_RETRIES).
    max_retries = 8
    # With task_retry_on_worker_lost, a task whose process died is sent again after this many
    # seconds, counted against max_retries; past them it fails and is recorded (see below).
    default_retry_delay = 30


def stage_task(app: Celery, step: Step) -> Callable[[Callable[..., None]], StageTask]:
    """The decorator that makes a function ``step``'s task, as the job's table declares it
    (``jobs.table``; its queue, priority and time limits are routed by ``workers.app``)."""
    row = job_step(step)
    return app.task(
        base=StageTask,
        bind=True,
        name=str(step),
        step=step,
        stage=row.stage,
        subject=row.subject,
        then=row.then,
    )


def outage_delay(retries: int) -> float:
    """Seconds before outage retry ``retries + 1``: doubling, capped, jittered."""
    cap = runtime.settings().outage_backoff_max
    return min(cap, 2.0 ** (retries + 1)) * random.uniform(0.5, 1.0)


def claimed(task: StageTask, session: Session, subject_id: int) -> Claimed | None:
    """Claim the task's subject in ``session``; None (log it, and do nothing more) if it no
    longer waits for this step: a redelivered or duplicated message for work already done.

    The claim must be committed before the work starts (the recovery sweep reads who took
    what), so ``session`` is an autocommit one (``store.db.autocommit``): the claim is one
    statement, and the task's loads can follow in the same session."""
    taken = claim(session, task.step, subject_id, runtime.incarnation())
    if taken is None:
        logger.info("%s[%s]: already past this step, nothing to do", task.name, subject_id)
    return taken


@contextmanager
def failures_recorded(task: StageTask, subject_id: int) -> Iterator[Clock]:
    """Run a stage's body; record its failure against the task's subject."""
    with outages_retried(task), _failures_recorded(task, subject_id) as clock:
        yield clock


@contextmanager
def outages_retried(task: StageTask) -> Iterator[None]:
    """Retry the task while the database, Redis or the data folder is down, as long as it
    takes."""
    try:
        yield
    except TRANSIENT_ERRORS as error:
        raise task.retry(
            exc=error, countdown=outage_delay(task.request.retries), max_retries=OUTAGE_RETRIES
        ) from error


@contextmanager
def flukes_retried(task: StageTask) -> Iterator[None]:
    """Retry the task after an unexpected error, as a subject's body is (``failures_recorded``);
    past those retries the task fails, and ``record_final_failure`` records it against every
    subject still waiting."""
    try:
        yield
    except (Retry, SoftTimeLimitExceeded, *TRANSIENT_ERRORS):
        raise
    except Exception as error:
        retry_unexpected(task, error)
        raise


def retry_unexpected(task: StageTask, error: Exception) -> None:
    """Retry the task after an unexpected error, up to UNEXPECTED_ERROR_RETRIES times."""
    if task.request.retries < UNEXPECTED_ERROR_RETRIES:
        delay = UNEXPECTED_ERROR_DELAY * 2**task.request.retries
        # No max_retries here: the check above bounds these retries, and Celery keeps a
        # max_retries given to retry() on the task object, where it would then cap every later
        # outage retry of this task in this process.
        raise task.retry(exc=error, countdown=delay) from error


@contextmanager
def _failures_recorded(task: StageTask, subject_id: int) -> Iterator[Clock]:
    stage = task.stage
    clock = Clock()
    try:
        yield clock
        return
    except TRANSIENT_ERRORS:
        raise
    except sqlalchemy.exc.NoResultFound:
        # Its row is gone (the batch was deleted, or a later rectify replaced the page's
        # boards): there is nothing left to work on or to record against.
        logger.warning("%s: subject no longer exists, dropping the task", task.name)
        return
    except SudokuBatchError as error:
        failure = error
    except SoftTimeLimitExceeded:
        failure = StageTimedOut.of(stage)
    except Exception as error:
        retry_unexpected(task, error)
        logger.exception("%s failed unexpectedly; recording the failure", task.name)
        failure = InternalError.wrapping(error, stage)
    with transaction(runtime.sessions()) as session:
        if still_waiting(session, task.step, subject_id):
            record_failure(
                session,
                failure,
                stage,
                **{task.subject: subject_id},
                seconds=clock.seconds,
                worker=runtime.worker_name(task.request.hostname),
                task=stage,
            )


@task_failure.connect
def record_final_failure(
    sender: Task | None = None,
    exception: BaseException | None = None,
    args: Any = (),
    **_: Any,
) -> None:
    """Record a stage task that failed for good against its subject, so its batch finishes.

    Celery sends this signal from the worker's main process when the task's process was killed
    at the hard time limit or lost past its retries; those tasks are acknowledged, not
    redelivered. Only a subject that still waits for the step is recorded, so a final outcome
    is never overwritten, and a second signal for the same failure (Celery sends two on a hard
    time limit) changes nothing. An outage is never a subject's failure: the subject stays
    waiting, and the recovery sweep hands it out again once the services are back.
    """
    if not isinstance(sender, StageTask) or not args:
        return
    if isinstance(exception, TRANSIENT_ERRORS):
        logger.warning("%s[%s]: gave up on an outage; the sweep will retry", sender.name, args[0])
        return
    failure = _final_failure(exception, sender.stage)
    subject_ids = args[0] if isinstance(args[0], list) else [args[0]]  # a listed step's
    try:
        with transaction(runtime.sessions()) as session:
            for subject_id in all_still_waiting(session, sender.step, subject_ids):
                record_failure(
                    session,
                    failure,
                    sender.stage,
                    **{sender.subject: subject_id},
                    task=sender.stage,
                )
    except sqlalchemy.exc.NoResultFound:
        pass  # its row is gone: nothing is waiting on it
    except Exception:
        # Most likely the outage that failed the task: it stays pending, and this says why.
        logger.exception("%s[%s]: could not record its failure", sender.name, args[0])


def _final_failure(exception: BaseException | None, stage: Stage) -> SudokuBatchError:
    if isinstance(exception, TimeLimitExceeded):
        return StageTimedOut.of(stage)
    if isinstance(exception, WorkerLostError):
        return WorkerLost(
            f"the worker process running the {stage} stage died on every try (out of memory,"
            " or a crash); please report it with this input"
        )
    if isinstance(exception, Exception):
        return InternalError.wrapping(exception, stage)
    return InternalError(f"the {stage} stage failed ({exception!r}); please report it")
