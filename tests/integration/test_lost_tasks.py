"""Tasks that end without finishing, in a real prefork worker: one killed at its hard time limit
and one whose process dies each time are recorded as failed, not redelivered for ever, so their
batch finishes."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.jobs.table import Step
from sudoku_batch.settings import Settings
from sudoku_batch.store.models import Page
from sudoku_batch.store.progress import subject_states
from sudoku_batch.store.results import state_counts
from sudoku_batch.workers.app import make_celery
from sudoku_batch.workers.publish import hand_over
from tests.integration.conftest import Service, queued, settings_env, wait_until
from tests.integration.test_stage_failures import PNG, new_page

pytestmark = pytest.mark.services

SETTLE_SECONDS = 5.0  # after the failure is recorded, long enough to see any redelivery
LIMIT = 90.0


@pytest.mark.parametrize(
    ("mode", "calls", "code", "words"),
    [
        ("hang", 1, "stage_timeout", "took too long"),
        ("die", 2, "worker_lost", "died on every try"),
    ],
)
def test_a_task_that_never_finishes_is_recorded_as_failed_once_and_for_all(
    mode: str,
    calls: int,
    code: str,
    words: str,
    make_settings: Callable[[str], Settings],
    sessions: sessionmaker[Session],
    tmp_path: Path,
) -> None:
    settings = make_settings(f"lost-{mode}")
    page_id = new_page(sessions, PNG, settings.data_dir)
    log = tmp_path / "calls"
    worker = Service(
        "worker",
        [sys.executable, "-m", "tests.integration.stalling_worker", mode, str(log)],
        settings_env(settings),
        tmp_path,
    )
    try:
        # Sent as the stages send, noted sent: else the worker's sweep would send it again.
        hand_over(make_celery(settings), sessions, Step.RECTIFY, [page_id])

        def recorded() -> Page | None:
            with sessions() as db:
                page = db.get_one(Page, page_id)
                return page if page.status != "pending" else None

        try:
            page = wait_until(recorded, LIMIT, f"page {page_id} to be recorded")
        except pytest.fail.Exception:
            pytest.fail(f"page {page_id} stayed pending:\n{worker.log_tail()}")
        time.sleep(SETTLE_SECONDS)
        assert worker.alive(), worker.log_tail()
    finally:
        worker.stop()

    assert (page.status, page.error_code) == ("failed", code)
    assert words in (page.message or "")
    assert len(log.read_text().split()) == calls, worker.log_tail()
    with sessions() as db:
        assert state_counts(subject_states(db, page.batch_id))["finished"]
    queue = redis.Redis.from_url(settings.broker_url)
    assert queued(settings, "rectify") == []
    assert queue.hlen(f"{settings.redis_key_prefix}unacked") == 0
