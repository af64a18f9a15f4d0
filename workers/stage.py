"""How every stage task treats errors, so each task module holds only its stage's steps.

- A ``SudokuBatchError`` (bad page, no grid, engine missing...) is recorded at once as the
  subject's failure with its user-facing message; the batch goes on.
- A transient error (database or Redis unreachable) is retried with exponential backoff:
  the task is idempotent, so running it again is safe.
- Anything else is a bug or a fluke: retried a couple of times, then recorded as failed with
  a message that says so, so the batch still finishes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

import kombu.exceptions
import redis.exceptions
import sqlalchemy.exc
from celery import Task
from celery.exceptions import SoftTimeLimitExceeded

from pipeline.errors import InternalError, SudokuBatchError
from store.db import transaction
from store.record import Stage, record_failure
from workers import runtime

logger = logging.getLogger(__name__)

TRANSIENT_ERRORS: tuple[type[Exception], ...] = (
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    kombu.exceptions.OperationalError,
)
UNEXPECTED_ERROR_RETRIES = 2
UNEXPECTED_ERROR_DELAY = 5.0  # seconds, doubled on each retry


class StageTimedOut(SudokuBatchError):
    code = "stage_timeout"



class StageTask(Task):
    autoretry_for = TRANSIENT_ERRORS
    retry_backoff = 2
    retry_backoff_max = 120
    retry_jitter = True
    max_retries = 8


class Clock:
    """Seconds since the stage started, for its stage run."""

    def __init__(self) -> None:
        self.started = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


@contextmanager
def failures_recorded(
    task: Task,
    stage: Stage,
    *,
    input_file_id: int | None = None,
    page_id: int | None = None,
    puzzle_id: int | None = None,
) -> Iterator[Clock]:
    """Run a stage's body; record its failure against the one subject id given."""
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
        failure = StageTimedOut(f"the {stage} stage took too long and was stopped")
    except Exception as error:
        if task.request.retries < UNEXPECTED_ERROR_RETRIES:
            delay = UNEXPECTED_ERROR_DELAY * 2**task.request.retries
            raise task.retry(
                exc=error, countdown=delay, max_retries=UNEXPECTED_ERROR_RETRIES
            ) from error
        logger.exception("%s failed unexpectedly; recording the failure", task.name)
        failure = InternalError.wrapping(error, stage)
    with transaction(runtime.sessions()) as session:
        record_failure(
            session,
            failure,
            stage,
            input_file_id=input_file_id,
            page_id=page_id,
            puzzle_id=puzzle_id,
            seconds=clock.seconds,
            worker=runtime.worker_name(task.request.hostname),
        )
