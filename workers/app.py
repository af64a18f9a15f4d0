"""The Celery app and all its configuration, in one place.

Start a worker with ``celery -A workers.app worker -Q ingest,rectify,ocr,solve`` (or
``sudoku-batch worker``). Messages carry ids only; the database holds everything else.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

from sudoku_batch.pipeline.book.facts import facts_allowance
from sudoku_batch.settings import Settings
from sudoku_batch.store.handover import Step

# Task names: the API and the stages send work by name, so senders need not import the
# pipeline. Each task has a queue of its own, so each stage can be scaled on its own.
TASK_INGEST = Step.INGEST.value
TASK_RECTIFY = Step.RECTIFY.value
TASK_OCR = Step.OCR.value
TASK_SOLVE = Step.SOLVE.value
# A text file of puzzles skips the vision stages: its lines are read as they are, then solved.
TASK_INGEST_TEXT = Step.INGEST_TEXT.value
TASK_SOLVE_TEXT = Step.SOLVE_TEXT.value
QUEUE_OF_TASK = {
    TASK_INGEST: "ingest",
    TASK_RECTIFY: "rectify",
    TASK_OCR: "ocr",
    TASK_SOLVE: "solve",
    TASK_INGEST_TEXT: "ingest",
    TASK_SOLVE_TEXT: "solve",
}
QUEUES = tuple(dict.fromkeys(QUEUE_OF_TASK.values()))
# Later stages first, so that a book's results come out while its pages are still being read
# and finished work does not wait behind the whole book's rectify tasks. Kombu's Redis
# transport keeps a list per queue and priority step (default steps 0, 3, 6, 9) and one BRPOP
# names every priority-0 list of a worker's queues before any priority-3 one, so a priority
# orders the stages whichever queues a worker consumes and in whatever order; on Redis a
# lower number goes first. (The queues' own order cannot: the default strategy round-robins
# them.)
PRIORITY_OF_TASK = {
    TASK_SOLVE: 0,
    TASK_SOLVE_TEXT: 0,
    TASK_OCR: 3,
    TASK_RECTIFY: 6,
    TASK_INGEST: 9,
    TASK_INGEST_TEXT: 9,
}

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
    # The OCR task solves what it read (workers.tasks.ocr): the last board it begins may start
    # at the end of its window.
    soft, hard = solve_time_limits(settings)
    return (
        READING_WINDOW + STAGE_TIME_LIMITS[0] + soft,
        READING_WINDOW + STAGE_TIME_LIMITS[1] + hard,
    )


def longest_task(settings: Settings) -> float:
    """The hard time limit of the longest stage task, in seconds."""
    return ocr_time_limits(settings)[1]


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
    return {
        "include": [
            "sudoku_batch.workers.tasks.ingest",
            "sudoku_batch.workers.tasks.rectify",
            "sudoku_batch.workers.tasks.ocr",
            "sudoku_batch.workers.tasks.solve",
            "sudoku_batch.workers.tasks.ingest_text",
            "sudoku_batch.workers.tasks.solve_text",
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
        # The solve limits cover doubting (ample for a text puzzle, solved once); the OCR task
        # solves what it read, so its limits add them to its own.
        "task_annotations": {
            task: {"soft_time_limit": task_soft, "time_limit": task_hard}
            for task, (task_soft, task_hard) in (
                (TASK_SOLVE, solve_time_limits(settings)),
                (TASK_SOLVE_TEXT, solve_time_limits(settings)),
                (TASK_OCR, ocr_time_limits(settings)),
            )
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
        "task_routes": {
            name: {"queue": queue, "priority": PRIORITY_OF_TASK[name]}
            for name, queue in QUEUE_OF_TASK.items()
        },
        "task_default_queue": QUEUE_OF_TASK[TASK_INGEST],
    }


app = make_celery(Settings.from_env())
