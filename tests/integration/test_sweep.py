"""The recovery sweep's rules on the test database: what counts as stranded, and that sweeping
sends a stranded subject once, not again on the next sweep. (The sweep in action through real
outages: test_faults.py, test_outages.py.)"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.jobs.table import Step
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import transaction
from sudoku_batch.store.handover import Deadlines, stranded
from sudoku_batch.store.models import Page, WorkerHeartbeat, utc_now
from sudoku_batch.workers.app import make_celery
from sudoku_batch.workers.sweep import beat, sweep_once
from tests.integration.conftest import queued, settings_env
from tests.integration.test_stage_failures import PNG, new_page

pytestmark = pytest.mark.services

DEADLINES = Deadlines(
    lost_after=timedelta(seconds=60),
    dead_after=timedelta(seconds=45),
    reclaim_after=timedelta(seconds=600),
)


def page_state(sessions: sessionmaker[Session], page_id: int, **values: object) -> None:
    with transaction(sessions) as db:
        db.execute(update(Page).where(Page.id == page_id).values(**values))


def stranded_pages(sessions: sessionmaker[Session], empty: set[Step]) -> set[int]:
    with transaction(sessions) as db:
        return {h.subject_id for h in stranded(db, DEADLINES, empty) if h.step is Step.RECTIFY}


def test_what_counts_as_stranded(sessions: sessionmaker[Session], tmp_path: Path) -> None:
    page = new_page(sessions, PNG, tmp_path)
    now = utc_now()
    everything = set(Step)

    assert page in stranded_pages(sessions, set())  # never sent

    page_state(sessions, page, queued_at=now - timedelta(seconds=10))
    assert page not in stranded_pages(sessions, everything)  # just sent
    page_state(sessions, page, queued_at=now - timedelta(seconds=120))
    assert page not in stranded_pages(sessions, set())  # its queue still holds messages
    assert page in stranded_pages(sessions, everything)  # queue empty: the message was lost

    beat(sessions, "live/1", "live")
    with transaction(sessions) as db:
        db.add(
            WorkerHeartbeat(
                incarnation="dead/1", hostname="dead", last_seen=now - timedelta(minutes=5)
            )
        )
    claimed = now - timedelta(seconds=90)
    page_state(sessions, page, started_at=claimed, claimed_by="live/1")
    assert page not in stranded_pages(sessions, everything)  # a live worker has it
    page_state(sessions, page, claimed_by="dead/1")
    assert page in stranded_pages(sessions, everything)  # its worker stopped beating
    page_state(sessions, page, claimed_by="live/1", started_at=now - timedelta(minutes=11))
    assert page in stranded_pages(sessions, everything)  # claimed for longer than any run

    page_state(sessions, page, status="done")
    assert page not in stranded_pages(sessions, everything)  # final: nothing to send


def test_a_sweep_sends_a_stranded_subject_once(
    make_settings: Callable[[str], Settings], sessions: sessionmaker[Session]
) -> None:
    settings = make_settings("sweep")
    page = new_page(sessions, PNG, settings.data_dir)

    def sent() -> list[int]:
        """The subject ids of the rectify messages in this test's queue (from their argsrepr,
        ``(12: batch ... p.png p1)``)."""
        reprs = [m["headers"]["argsrepr"] for m in queued(settings, "rectify")]
        return [int(r[1:].split(":")[0]) for r in reprs]

    sweep_once(make_celery(settings), sessions, settings)
    assert sent().count(page) == 1
    sweep_once(make_celery(settings), sessions, settings)
    assert sent().count(page) == 1  # noted sent: not sent again
    with sessions() as db:
        assert db.get_one(Page, page).queued_at is not None

    # On demand, from the command line: nothing left to send for it.
    recovered = subprocess.run(
        [sys.executable, "-m", "sudoku_batch.cli", "recover"],
        env=settings_env(settings),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert recovered.returncode == 0, recovered.stderr
    assert "sent again" in recovered.stdout
    assert sent().count(page) == 1
