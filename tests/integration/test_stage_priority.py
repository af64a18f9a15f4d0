"""Later stages first: a worker on every queue takes a waiting solve before an OCR task and an
OCR task before a rectify task, whichever was sent first (workers.app.PRIORITY_OF_TASK)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from kombu import Consumer

from sudoku_batch.settings import Settings
from sudoku_batch.workers.app import (
    QUEUES,
    TASK_INGEST,
    TASK_OCR,
    TASK_RECTIFY,
    TASK_SOLVE,
    make_celery,
)

pytestmark = pytest.mark.services


def test_a_worker_takes_the_latest_stage_first(make_settings: Callable[[str], Settings]) -> None:
    app = make_celery(make_settings("priority"))
    sent = [TASK_INGEST, TASK_RECTIFY, TASK_RECTIFY, TASK_OCR, TASK_SOLVE]
    for name in sent:
        app.send_task(name, args=[0])
    taken: list[str] = []
    with app.connection_for_read() as connection:
        queues = [app.amqp.queues[queue] for queue in QUEUES]  # as `worker -Q` lists them

        def take(_body: object, message) -> None:
            taken.append(message.headers["task"])
            message.ack()

        # One at a time, as a worker process with prefetch 1 takes them.
        with Consumer(connection.channel(), queues=queues, callbacks=[take], prefetch_count=1):
            while len(taken) < len(sent):
                connection.drain_events(timeout=10)
    assert taken == [TASK_SOLVE, TASK_OCR, TASK_RECTIFY, TASK_RECTIFY, TASK_INGEST]
