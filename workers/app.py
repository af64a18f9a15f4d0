"""The Celery app and all its configuration, in one place.

Start a worker with ``celery -A sudoku_batch.workers.app worker -Q ingest,rectify,ocr,solve`` (or
``sudoku-batch worker``). Messages carry ids only; the database holds everything else.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

from sudoku_batch.jobs.table import Step, TimeLimits, job_step, job_steps
from sudoku_batch.pipeline.book.facts import facts_allowance
from sudoku_batch.settings import Settings
from sudoku_batch.workers import broker_close  # noqa: F401 - mends kombu's close at import

# Soft limit, then hard limit, in seconds. A page (rasterise, locate, rectify) or a board's OCR
# takes seconds; the margin covers a slow first call that loads a model.
STAGE_TIME_LIMITS = (300.0, 360.0)


def solve_time_limits(settings: Settings) -> tuple[float, float]:
    # A last resort only: a grid ends within its solve timeout (doubts included) and the
    # allowance for its rating, canonical form and render (pipeline.book.facts), each bounded
    # on its own. The margin is for the database and a slow first call.
    soft = 4 * settings.solve_timeout + facts_allowance(settings.rating_seconds) + 60
    return soft, soft + 60


# An OCR task begins its page's boards within this many seconds; later ones are handed on in a
# message of their own (workers.tasks.ocr), so one board's limits cover any page.
READING_WINDOW = 60.0


def ocr_time_limits(settings: Settings) -> tuple[float, float]:
    # The last board an OCR task begins may start at the end of its window. The task settles
    # only what is cheap to solve (workers.tasks.ocr; the rest goes to a solve task), but the
    # rating, canonical form and render of what it settles are bounded on their own.
    allowance = facts_allowance(settings.rating_seconds)
    soft, hard = STAGE_TIME_LIMITS
    return READING_WINDOW + soft + allowance, READING_WINDOW + hard + allowance


LIMIT_OPTIONS = ("soft_time_limit", "time_limit")  # a task's limits, as Celery names them


def time_limits(settings: Settings) -> dict[TimeLimits, tuple[float, float]]:
    """Each kind of step's soft and hard time limits, in seconds (``JobStep.time_limits``)."""
    return {
        TimeLimits.STAGE: STAGE_TIME_LIMITS,
        TimeLimits.SOLVE: solve_time_limits(settings),
        TimeLimits.READ_AND_SOLVE: ocr_time_limits(settings),
    }


def longest_task(settings: Settings) -> float:
    """The hard time limit of the longest stage task, in seconds."""
    return max(ocr_time_limits(settings)[1], solve_time_limits(settings)[1])


def make_celery(settings: Settings) -> Celery:
    # No result backend: nothing reads task results (the database holds every outcome), and a
    # failure to store one must never count as the task's failure.
    app = Celery("sudoku_batch", broker=settings.broker_url)
    app.conf.update(celery_config(settings))
    return app


def celery_config(settings: Settings) -> dict[str, Any]:
    # With late acks an unacknowledged message comes back after the visibility timeout; it
    # must outlast the longest task or a running task would be handed out twice. A dead
    # worker's subjects do not wait for it: the recovery sweep hands them out again once the
    # worker stops beating (about a minute, workers.sweep); the message coming back later
    # finds them done and is dropped.
    transport: dict[str, Any] = {"visibility_timeout": int(longest_task(settings)) + 120}
    if settings.redis_key_prefix:
        transport["global_keyprefix"] = settings.redis_key_prefix
    soft, hard = STAGE_TIME_LIMITS
    limits = time_limits(settings)
    return {
        "include": [
            *dict.fromkeys(row.module for row in job_steps()),
            "sudoku_batch.workers.sweep",
        ],
        "task_serializer": "json",
        "accept_content": ["json"],
        "event_serializer": "json",
        # A task is acknowledged when done, and run again if its worker dies; every task is
        # idempotent, so running twice is safe while losing one is not. A task whose process
        # died is sent again as a retry (the whole worker gone: redelivered), so a page that
        # kills its process every time fails after max_retries instead of looping for ever;
        # one killed at its hard time limit is acknowledged as failed. Both failures are
        # recorded against their subject (workers.stage.record_final_failure).
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "task_retry_on_worker_lost": True,
        # One task at a time per process: tasks are long and uneven, so prefetching would
        # park work behind a slow page while another process idles.
        "worker_prefetch_multiplier": 1,
        "task_soft_time_limit": soft,
        "task_time_limit": hard,
        # The solve limits cover doubting (ample for a text puzzle, solved once); the OCR
        # task's cover its reading window and what it settles inline.
        "task_annotations": {
            str(row.step): dict(zip(LIMIT_OPTIONS, limits[row.time_limits], strict=True))
            for row in job_steps()
            if row.time_limits is not TimeLimits.STAGE
        },
        "broker_transport_options": transport,
        "broker_connection_retry_on_startup": True,
        # The broker may be down for a while: keep reconnecting instead of exiting.
        "broker_connection_max_retries": None,
        "task_ignore_result": True,
        # Flower sees every task from the moment it is sent until it ends (from events: it
        # needs no result backend).
        "worker_send_task_events": True,
        "task_send_sent_event": True,
        # Each step's queue and priority, from the job's table. Kombu's Redis transport keeps a
        # list per queue and priority step (default steps 0, 3, 6, 9) and one BRPOP names every
        # priority-0 list of a worker's queues before any priority-3 one, so a priority orders
        # the stages whichever queues a worker consumes and in whatever order; on Redis a lower
        # number goes first. (The queues' own order cannot: the default strategy round-robins
        # them.)
        "task_routes": {
            str(row.step): {"queue": row.queue, "priority": row.priority} for row in job_steps()
        },
        "task_default_queue": job_step(Step.INGEST).queue,
    }


app = make_celery(Settings.from_env())
