"""Outages in the middle of a batch, each its own test (``fault_run``): PostgreSQL down longer
than a task's retry window, a batch posted while the broker is down.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from sudoku_batch.store.migrate import upgrade
from tests.integration.fault_run import FAST, Run
from tests.integration.services import PrivatePostgres, PrivateRedis

pytestmark = pytest.mark.services


def test_postgres_down_longer_than_a_tasks_retry_window_loses_nothing(
    redis_server: PrivateRedis, run_on: Callable[..., Run]
) -> None:
    postgres = PrivatePostgres()
    postgres.start()
    try:
        upgrade(postgres.url)
        run = run_on(redis_server.url, postgres.url, **FAST)
        run.start_worker("worker")
        run.submit()
        run.wait_for_flow()
        struck = time.monotonic()
        postgres.stop()
        # Outage retries back off to 3 s here: 30 s is ten retries, past the 8 that once made
        # a task give up and record `services_unreachable`.
        time.sleep(30)
        postgres.start()
        run.finish("PostgreSQL down 30 s", struck, limit=120)
    finally:
        postgres.remove()


def test_a_batch_posted_while_the_broker_is_down_is_queued_when_it_returns(
    redis_server: PrivateRedis, run_on: Callable[..., Run]
) -> None:
    run = run_on(redis_server.url, **FAST)
    run.start_worker("worker")
    time.sleep(2)
    redis_server.stop()
    struck = time.monotonic()
    submitted = run.submit()
    assert submitted["queued"] is False  # stored, and said so: not a 503
    time.sleep(3)
    redis_server.start()
    run.finish("POST while Redis is down (3 s)", struck, limit=90)
