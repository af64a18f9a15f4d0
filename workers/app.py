"""The Celery app and all its configuration, in one place.

Start a worker with ``celery -A workers.app worker -Q ingest,rectify,ocr,solve`` (or
``sudoku-batch worker``). Messages carry ids only; the database holds everything else.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

from settings import Settings

# Task names: the API and the stages send work by name, so senders need not import the
# pipeline. Each task has a queue of its own, so each stage can be scaled on its own.
TASK_INGEST = "sudoku_batch.ingest"
TASK_RECTIFY = "sudoku_batch.rectify"
TASK_OCR = "sudoku_batch.ocr"
TASK_SOLVE = "sudoku_batch.solve"
# A text file of puzzles skips the vision stages: its lines are read as they are, then solved.
TASK_INGEST_TEXT = "sudoku_batch.ingest_text"
TASK_SOLVE_TEXT = "sudoku_batch.solve_text"
QUEUE_OF_TASK = {
    TASK_INGEST: "ingest",
    TASK_RECTIFY: "rectify",
    TASK_OCR: "ocr",
    TASK_SOLVE: "solve",
    TASK_INGEST_TEXT: "ingest",
    TASK_SOLVE_TEXT: "solve",
}
QUEUES = tuple(dict.fromkeys(QUEUE_OF_TASK.values()))

# Soft limit, then hard limit, in seconds. A page (rasterise, locate, rectify) or a board's OCR
# takes seconds; the margin covers a slow first call that loads a model.
STAGE_TIME_LIMITS = (300.0, 360.0)


def solve_time_limits(solve_timeout: float) -> tuple[float, float]:
    # Reconciling doubtful readings may run the solver a few times, then the render.
    soft = 4 * solve_timeout + 60
    return soft, soft + 60


def make_celery(settings: Settings) -> Celery:
    app = Celery("sudoku_batch", broker=settings.broker_url, backend=settings.result_backend_url)
    app.conf.update(celery_config(settings))
    return app


def celery_config(settings: Settings) -> dict[str, Any]:
    solve_soft, solve_hard = solve_time_limits(settings.solve_timeout)
    longest = max(solve_hard, STAGE_TIME_LIMITS[1])
    # With late acks an unacknowledged message comes back after the visibility timeout; it
    # must outlast the longest task or a running task would be handed out twice.
    transport: dict[str, Any] = {"visibility_timeout": int(2 * longest) + 600}
    result_transport: dict[str, Any] = {}
    if settings.redis_key_prefix:
        transport["global_keyprefix"] = settings.redis_key_prefix
        result_transport["global_keyprefix"] = settings.redis_key_prefix
    soft, hard = STAGE_TIME_LIMITS
    return {
        "include": [
            "workers.tasks.ingest",
            "workers.tasks.rectify",
            "workers.tasks.ocr",
            "workers.tasks.solve",
            "workers.tasks.ingest_text",
            "workers.tasks.solve_text",
        ],
        "task_serializer": "json",
        "result_serializer": "json",
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
        # A text puzzle is solved once, with no doubts to try: these limits are ample for it.
        "task_annotations": {
            task: {"soft_time_limit": solve_soft, "time_limit": solve_hard}
            for task in (TASK_SOLVE, TASK_SOLVE_TEXT)
        },
        "broker_transport_options": transport,
        "result_backend_transport_options": result_transport,
        "broker_connection_retry_on_startup": True,
        "result_expires": 7 * 24 * 3600,
        # Flower sees every task from the moment it is sent until it ends.
        "worker_send_task_events": True,
        "task_send_sent_event": True,
        "task_track_started": True,
        "task_routes": {name: {"queue": queue} for name, queue in QUEUE_OF_TASK.items()},
        "task_default_queue": QUEUE_OF_TASK[TASK_INGEST],
    }


app = make_celery(Settings.from_env())
