"""Faults in the middle of a batch, each its own test (``fault_run``): a worker killed with
SIGKILL, Redis restarted with and without persistence. Outages of the database and of the broker
at submission are in test_outages.py (a file of their own, so the two run side by side).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable

import psutil
import pytest

from tests.integration.fault_run import DEFAULTS, FAST, Run
from tests.integration.services import PrivateRedis

pytestmark = pytest.mark.services


def test_a_worker_killed_with_sigkill_loses_nothing(
    redis_server: PrivateRedis, run_on: Callable[..., Run]
) -> None:
    # The deployment's deadlines, to measure what a deployment gets.
    run = run_on(redis_server.url, **DEFAULTS)
    first = run.start_worker("first")
    run.submit()
    run.wait_for_flow()
    struck = time.monotonic()
    process = psutil.Process(first.process.pid)
    for each in [*process.children(recursive=True), process]:
        each.send_signal(signal.SIGKILL)
    first.process.wait()
    run.start_worker("second")
    run.finish("SIGKILL a whole worker, start another", struck, limit=180)


@pytest.mark.parametrize(
    ("redis_server", "fault"),
    [
        (True, "Redis restart with AOF, 6 s down"),
        (False, "Redis restart, no persistence, 6 s down"),
    ],
    indirect=["redis_server"],
)
def test_a_redis_restart_loses_nothing(
    redis_server: PrivateRedis, run_on: Callable[..., Run], fault: str
) -> None:
    run = run_on(redis_server.url, **FAST)
    run.start_worker("worker")
    run.submit()
    run.wait_for_flow()
    struck = time.monotonic()
    redis_server.stop()
    time.sleep(6)
    redis_server.start()
    run.finish(fault, struck, limit=120)
