"""Sending a subject on to its next step: a worker may take the message before the sender has
noted it sent, and the note must not undo the worker's claim (a claim wiped while its task
runs lets the sweep send the subject again, and a second worker run it twice)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.jobs.table import Step
from sudoku_batch.store.db import transaction
from sudoku_batch.store.handover import claim, stranded
from sudoku_batch.store.models import Page
from sudoku_batch.workers.publish import hand_over
from sudoku_batch.workers.sweep import beat
from tests.integration.test_stage_failures import PNG, new_page
from tests.integration.test_sweep import DEADLINES

pytestmark = pytest.mark.services

WORKER = "taker/1"


class TakenAtOnce:
    """Stands in for the broker and a fast idle worker: each message sent is taken, and its
    subject claimed, before ``send_task`` returns to the sender."""

    def __init__(self, sessions: sessionmaker[Session]):
        self.sessions = sessions

    def send_task(self, name: str, args: list[object], argsrepr: str) -> None:
        with transaction(self.sessions) as db:
            assert claim(db, Step(name), int(args[0]), WORKER) is not None


def test_a_claim_made_before_the_sender_notes_the_message_sent_is_kept(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    page = new_page(sessions, PNG, tmp_path)
    beat(sessions, WORKER, "taker")

    hand_over(TakenAtOnce(sessions), sessions, Step.RECTIFY, [page])

    with transaction(sessions) as db:
        row = db.get_one(Page, page)
        assert row.claimed_by == WORKER
        assert row.started_at is not None
        assert row.queued_at is not None
        assert page not in {h.subject_id for h in stranded(db, DEADLINES, set(Step))}
