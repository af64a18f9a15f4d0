"""The stage tasks' failure policy, run eagerly in this process on the test database: a user
error is recorded at once; an unexpected error is retried, then recorded; a task past its
soft time limit is recorded as too slow; an outage is retried until it ends and never recorded
as a failure; a final outcome is never redone or undone."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.pipeline.errors import UnsupportedInput
from sudoku_batch.pipeline.ingest.sources import PageFormat, PageSource
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import transaction
from sudoku_batch.store.models import Page, StageRun
from sudoku_batch.store.record import add_input_file, add_pages, create_batch
from sudoku_batch.workers.stage import UNEXPECTED_ERROR_RETRIES, StageTask, record_final_failure
from sudoku_batch.workers.tasks import rectify

pytestmark = pytest.mark.services

PNG = PageSource("p.png", 1, "p.png", PageFormat.IMAGE)


def new_page(sessions: sessionmaker[Session], source: PageSource, data_dir: Path) -> int:
    # Its upload is where the database says, as the API stores it: one missing is the
    # deployment's fault (retried until found), never the page's.
    stored = f"uploads/{source.source}"
    upload = data_dir / stored
    upload.parent.mkdir(parents=True, exist_ok=True)
    upload.touch()
    with transaction(sessions) as db:
        batch_id = create_batch(db, "failure policy")
        input_file_id = add_input_file(db, batch_id, source.source, stored)
        [page_id] = add_pages(db, input_file_id, [source], 0.0)
    return page_id


def outcome(
    sessions: sessionmaker[Session], page_id: int, stage: str = "rectify"
) -> tuple[str, str | None, str | None]:
    with sessions() as db:
        page = db.get_one(Page, page_id)
        run = db.query(StageRun).filter_by(page_id=page_id, stage=stage).one()
        assert run.status == "failed" and run.error_code == page.error_code
        return page.status, page.error_code, page.message


def test_a_page_refused_at_listing_is_final_at_once_and_no_stage_redoes_it(
    worker_runtime: Settings, sessions: sessionmaker[Session]
) -> None:
    problem = "notes.txt: not an image, PDF or zip archive"
    notes = PageSource("notes.txt", 1, "notes.txt", PageFormat.UNSUPPORTED, problem=problem)
    page_id = new_page(sessions, notes, worker_runtime.data_dir)
    failed = ("failed", "unsupported_input", problem)
    assert outcome(sessions, page_id, stage="ingest") == failed
    rectify.rectify_page_boards.apply(args=[page_id])  # a stray message finds nothing to do
    assert outcome(sessions, page_id, stage="ingest") == failed
    with sessions() as db:
        assert db.query(StageRun).filter_by(page_id=page_id, stage="rectify").count() == 0


def test_an_unexpected_error_is_retried_then_recorded(
    worker_runtime: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    def broken(source: PageSource, *_: object) -> None:
        calls.append(source)
        raise RuntimeError("boom")

    monkeypatch.setattr(rectify, "load_page_step", broken)
    page_id = new_page(sessions, PNG, worker_runtime.data_dir)
    rectify.rectify_page_boards.apply(args=[page_id])
    status, code, message = outcome(sessions, page_id)
    assert (status, code) == ("failed", "internal_error")
    assert "RuntimeError: boom" in (message or "")
    assert len(calls) == 1 + UNEXPECTED_ERROR_RETRIES


def test_a_task_past_its_soft_time_limit_is_recorded_as_too_slow(
    worker_runtime: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    def slow(source: PageSource, *_: object) -> None:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(rectify, "load_page_step", slow)
    page_id = new_page(sessions, PNG, worker_runtime.data_dir)
    rectify.rectify_page_boards.apply(args=[page_id])
    assert outcome(sessions, page_id)[:2] == ("failed", "stage_timeout")


def test_an_outage_is_retried_until_it_ends_and_never_recorded_as_the_page_failing(
    worker_runtime: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    outage = StageTask.max_retries + 3  # longer than any retry budget: outages have none

    def unreachable_for_a_while(source: PageSource, *_: object) -> None:
        calls.append(source)
        if len(calls) <= outage:
            raise redis.exceptions.ConnectionError("Connection refused")
        raise UnsupportedInput("p.png: back, and not an image")

    monkeypatch.setattr(rectify, "load_page_step", unreachable_for_a_while)
    page_id = new_page(sessions, PNG, worker_runtime.data_dir)
    rectify.rectify_page_boards.apply(args=[page_id])
    assert len(calls) == outage + 1
    assert outcome(sessions, page_id)[:2] == ("failed", "unsupported_input")


def test_a_second_delivery_neither_redoes_nor_undoes_a_final_outcome(
    worker_runtime: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []

    def user_error(source: PageSource, *_: object) -> None:
        calls.append(source)
        raise UnsupportedInput("p.png: not an image")

    monkeypatch.setattr(rectify, "load_page_step", user_error)
    page_id = new_page(sessions, PNG, worker_runtime.data_dir)
    rectify.rectify_page_boards.apply(args=[page_id])
    rectify.rectify_page_boards.apply(args=[page_id])  # redelivered: the page is final
    assert len(calls) == 1
    # A failure signal for it (a lost worker, a time limit) changes nothing either.
    record_final_failure(
        sender=rectify.rectify_page_boards, exception=TimeLimitExceeded(360), args=[page_id]
    )
    assert outcome(sessions, page_id)[:2] == ("failed", "unsupported_input")


def test_a_gave_up_outage_leaves_the_page_waiting_for_the_sweep(
    worker_runtime: Settings, sessions: sessionmaker[Session]
) -> None:
    page_id = new_page(sessions, PNG, worker_runtime.data_dir)
    record_final_failure(
        sender=rectify.rectify_page_boards,
        exception=redis.exceptions.ConnectionError("down"),
        args=[page_id],
    )
    with sessions() as db:
        assert db.get_one(Page, page_id).status == "pending"
