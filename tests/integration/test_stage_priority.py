"""Later stages first: a worker on every queue takes a waiting solve before an OCR task and an
OCR task before a rectify task, whichever was sent first (``JobStep.priority`` in jobs.table)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from kombu import Consumer

from sudoku_batch.jobs.table import Step, queues
from sudoku_batch.settings import Settings
from sudoku_batch.workers.app import make_celery

pytestmark = pytest.mark.services


def test_a_worker_takes_the_latest_stage_first(make_settings: Callable[[str], Settings]) -> None:
    app = make_celery(make_settings("priority"))
    sent = [Step.INGEST, Step.RECTIFY, Step.RECTIFY, Step.OCR, Step.SOLVE]
    for name in sent:
        app.send_task(name, args=[0])
    taken: list[str] = []
    with app.connection_for_read() as connection:
        consumed = [app.amqp.queues[queue] for queue in queues()]  # as `worker -Q` lists them

        def take(_body: object, message) -> None:
            taken.append(message.headers["task"])
            message.ack()

        # One at a time, as a worker process with prefetch 1 takes them.
        with Consumer(connection.channel(), queues=consumed, callbacks=[take], prefetch_count=1):
            while len(taken) < len(sent):
                connection.drain_events(timeout=10)
    assert taken == [Step.SOLVE, Step.OCR, Step.RECTIFY, Step.RECTIFY, Step.INGEST]
