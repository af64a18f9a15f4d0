"""The OCR task solves what it read, recording both stages in one transaction; a reading whose
solving fails there is recorded alone and handed to the solve task, which solves it under its
own error policy."""

from __future__ import annotations

from collections import deque

import pytest

from settings import Settings
from store.handover import Step
from store.models import Puzzle, PuzzleStatus, StageRun
from tests.integration.test_statements_per_task import page_to_ingest
from workers import runtime
from workers.app import app
from workers.tasks import ingest, ocr, rectify, solve  # noqa: F401 - registers the tasks

pytestmark = pytest.mark.services


def run_until(messages: deque[tuple[str, int]], step: Step) -> None:
    """Run the tasks sent, in order, until the next is one of ``step``."""
    while messages and messages[0][0] != step:
        sent, subject_id = messages.popleft()
        app.tasks[str(sent)].apply(args=[subject_id])


def stages_run(puzzle_id: int) -> dict[str, str]:
    with runtime.sessions()() as db:
        runs = db.query(StageRun).filter_by(puzzle_id=puzzle_id)
        return {run.stage: run.status for run in runs}


def test_the_ocr_task_records_both_stages_and_sends_nothing_on(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, messages = page_to_ingest(worker_runtime, runtime.sessions(), monkeypatch)
    run_until(messages, Step.OCR)
    puzzle_ids = [messages.popleft()[1] for _ in range(2)]
    for puzzle_id in puzzle_ids:
        app.tasks[Step.OCR].apply(args=[puzzle_id])
        assert stages_run(puzzle_id) == {"ocr": "ok", "solve": "ok"}
        with runtime.sessions()() as db:
            solving = db.query(StageRun).filter_by(puzzle_id=puzzle_id, stage="solve").one()
            assert solving.waited_seconds == 0.0  # solved at once, in no queue
    assert not messages


def test_a_reading_the_ocr_task_cannot_solve_goes_to_the_solve_task(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, messages = page_to_ingest(worker_runtime, runtime.sessions(), monkeypatch)
    run_until(messages, Step.OCR)
    [(_, puzzle_id), _] = messages

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("boom")

    with monkeypatch.context() as patched:
        patched.setattr(ocr, "solved_reading", broken)
        app.tasks[Step.OCR].apply(args=[puzzle_id])
    messages.popleft()
    with runtime.sessions()() as db:
        puzzle = db.get_one(Puzzle, puzzle_id)
        assert puzzle.status == PuzzleStatus.READ
        assert puzzle.queued_at is not None and puzzle.claimed_by is None  # sent, not taken
    assert stages_run(puzzle_id) == {"ocr": "ok"}
    assert messages[-1] == (Step.SOLVE, puzzle_id)

    app.tasks[Step.SOLVE].apply(args=[messages.pop()[1]])
    with runtime.sessions()() as db:
        assert db.get_one(Puzzle, puzzle_id).status == PuzzleStatus.SOLVED
    assert stages_run(puzzle_id) == {"ocr": "ok", "solve": "ok"}
