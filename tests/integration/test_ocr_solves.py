"""The OCR task reads the boards of a page handed over in one message, settles what is cheap to
solve and records both stages in one transaction; a reading past the inline budget, or whose
solving fails there, is recorded alone and handed to the solve task. Each board keeps its own
error policy, boards not begun within the task's window are handed on, and a task run again
hands each board on alone."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest
from celery.exceptions import WorkerLostError

from sudoku_batch.jobs.steps import BoardContext
from sudoku_batch.jobs.table import Step
from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.pipeline.solve.inline import BeyondBudget
from sudoku_batch.settings import Settings
from sudoku_batch.store.handover import Handoff
from sudoku_batch.store.models import Puzzle, PuzzleStatus, StageRun
from sudoku_batch.workers import publish, runtime, stage
from sudoku_batch.workers.app import app
from sudoku_batch.workers.tasks import ingest, ocr, rectify, solve  # noqa: F401 - registers the tasks
from tests.integration.test_statements_per_task import page_to_ingest

pytestmark = pytest.mark.services


def run_until(messages: deque[tuple[str, Any]], step: Step) -> None:
    """Run the tasks sent, in order, until the next is one of ``step``."""
    while messages and messages[0][0] != step:
        sent, subject = messages.popleft()
        app.tasks[str(sent)].apply(args=[subject])


def page_of_boards(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[int], deque[tuple[str, Any]]]:
    """The two boards of a page, rectified: the ids in the one OCR message rectify sent for
    them, and the messages sent from now on."""
    _, messages = page_to_ingest(settings, runtime.sessions(), monkeypatch)
    run_until(messages, Step.OCR)
    [(_, puzzle_ids)] = messages
    messages.clear()
    return puzzle_ids, messages


def stages_run(puzzle_id: int) -> dict[str, str]:
    with runtime.sessions()() as db:
        runs = db.query(StageRun).filter_by(puzzle_id=puzzle_id)
        return {run.stage: run.status for run in runs}


def status_of(puzzle_id: int) -> PuzzleStatus:
    with runtime.sessions()() as db:
        return db.get_one(Puzzle, puzzle_id).status


def test_one_message_reads_a_pages_boards_and_records_both_stages(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle_ids, messages = page_of_boards(worker_runtime, monkeypatch)
    assert len(puzzle_ids) == 2
    app.tasks[Step.OCR].apply(args=[puzzle_ids])
    for puzzle_id in puzzle_ids:
        assert stages_run(puzzle_id) == {"ocr": "ok", "solve": "ok"}
        with runtime.sessions()() as db:
            solving = db.query(StageRun).filter_by(puzzle_id=puzzle_id, stage="solve").one()
            assert solving.waited_seconds == 0.0  # solved at once, in no queue
            assert solving.task == "ocr"
    assert not messages


def test_a_reading_the_ocr_task_cannot_solve_goes_to_the_solve_task(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first, second), messages = page_of_boards(worker_runtime, monkeypatch)

    def broken(_session: object, puzzle_id: int, *args: object) -> object:
        if puzzle_id == first:
            raise RuntimeError("boom")
        return solve.solved_reading(_session, puzzle_id, *args)

    with monkeypatch.context() as patched:
        patched.setattr(ocr, "solved_reading", broken)
        app.tasks[Step.OCR].apply(args=[[first, second]])
    with runtime.sessions()() as db:
        puzzle = db.get_one(Puzzle, first)
        assert puzzle.status == PuzzleStatus.READ
        assert puzzle.queued_at is not None and puzzle.claimed_by is None  # sent, not taken
    assert stages_run(first) == {"ocr": "ok"}
    assert stages_run(second) == {"ocr": "ok", "solve": "ok"}
    assert list(messages) == [(Step.SOLVE, first)]

    app.tasks[Step.SOLVE].apply(args=[messages.pop()[1]])
    assert status_of(first) == PuzzleStatus.SOLVED
    assert stages_run(first) == {"ocr": "ok", "solve": "ok"}


def test_a_reading_past_the_inline_budget_is_solved_in_a_solve_task(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first, second), messages = page_of_boards(worker_runtime, monkeypatch)

    def past_the_budget(_session: object, puzzle_id: int, *args: object) -> object:
        if puzzle_id == first:
            raise BeyondBudget("past the budget")
        return solve.solved_reading(_session, puzzle_id, *args)

    with monkeypatch.context() as patched:
        patched.setattr(ocr, "solved_reading", past_the_budget)
        app.tasks[Step.OCR].apply(args=[[first, second]])
    assert status_of(first) == PuzzleStatus.READ
    assert stages_run(first) == {"ocr": "ok"}
    assert list(messages) == [(Step.SOLVE, first)]
    app.tasks[Step.SOLVE].apply(args=[messages.pop()[1]])
    with runtime.sessions()() as db:
        for puzzle_id, task in ((first, "solve"), (second, "ocr")):
            assert status_of(puzzle_id) == PuzzleStatus.SOLVED
            run = db.query(StageRun).filter_by(puzzle_id=puzzle_id, stage="solve").one()
            assert run.task == task


def test_a_board_that_cannot_be_read_fails_alone(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first, second), _ = page_of_boards(worker_runtime, monkeypatch)
    reading = ocr.read_board_step

    def unreadable(board: object, path: str, cells: object, at: BoardContext, *a: Any):
        if at.index == 0:
            raise SudokuBatchError("this board cannot be read")
        return reading(board, path, cells, at, *a)

    monkeypatch.setattr(ocr, "read_board_step", unreadable)
    app.tasks[Step.OCR].apply(args=[[first, second]])
    assert status_of(first) == PuzzleStatus.FAILED
    assert status_of(second) == PuzzleStatus.SOLVED


def test_boards_not_begun_within_the_window_are_handed_on(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first, second), messages = page_of_boards(worker_runtime, monkeypatch)
    monkeypatch.setattr(ocr, "READING_WINDOW", -1.0)  # the window has passed after one board
    app.tasks[Step.OCR].apply(args=[[first, second]])
    assert status_of(first) == PuzzleStatus.SOLVED
    assert list(messages) == [(Step.OCR, [second])]
    with runtime.sessions()() as db:
        handed_on = db.get_one(Puzzle, second)
        assert handed_on.status == PuzzleStatus.PENDING
        assert handed_on.queued_at is not None and handed_on.claimed_by is None
    app.tasks[Step.OCR].apply(args=[messages.popleft()[1]])
    assert status_of(second) == PuzzleStatus.SOLVED


def test_a_task_run_again_hands_each_board_on_alone(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first, second), messages = page_of_boards(worker_runtime, monkeypatch)
    app.tasks[Step.OCR].apply(args=[[first, second]], retries=1)  # e.g. its process died
    assert list(messages) == [(Step.OCR, [first]), (Step.OCR, [second])]
    assert {status_of(first), status_of(second)} == {PuzzleStatus.PENDING}
    while messages:
        app.tasks[Step.OCR].apply(args=[messages.popleft()[1]], retries=1)
    assert {status_of(first), status_of(second)} == {PuzzleStatus.SOLVED}


def test_a_final_failure_is_recorded_for_each_board_still_waiting(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first, second), _ = page_of_boards(worker_runtime, monkeypatch)
    app.tasks[Step.OCR].apply(args=[[first]])
    stage.record_final_failure(
        sender=app.tasks[Step.OCR], exception=WorkerLostError("gone"), args=([first, second],)
    )
    assert status_of(first) == PuzzleStatus.SOLVED  # final already: not overwritten
    with runtime.sessions()() as db:
        lost = db.get_one(Puzzle, second)
        assert (lost.status, lost.error_code) == (PuzzleStatus.FAILED, "worker_lost")


def test_a_pages_boards_go_in_one_message_that_flower_labels(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[str, list[object], str]] = []

    class Queue:
        def send_task(self, name: str, args: list[object], argsrepr: str) -> None:
            sent.append((name, args, argsrepr))

    handoffs = [Handoff(Step.OCR, 12 + i, f"batch 1a2b3c4d book.pdf p3 #{i}") for i in range(3)]
    handoffs.append(Handoff(Step.SOLVE, 99, "batch 1a2b3c4d book.pdf p4 #0"))
    monkeypatch.setattr(publish, "sent", lambda *_: None)  # no rows to note sent here
    publish.send_all(Queue(), runtime.sessions(), handoffs)  # type: ignore[arg-type]
    assert sent == [
        (Step.OCR, [[12, 13, 14]], "(12, 13, 14: batch 1a2b3c4d book.pdf p3 #0, #1, #2)"),
        (Step.SOLVE, [99], "(99: batch 1a2b3c4d book.pdf p4 #0)"),
    ]


def test_a_fluke_while_recording_is_retried_then_recorded_against_each_board(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first, second), messages = page_of_boards(worker_runtime, monkeypatch)

    def broken(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(ocr, "record_readings", broken)
    app.tasks[Step.OCR].apply(args=[[first, second]])
    # Run again (eagerly, at once), the task handed each board on alone; nothing recorded yet.
    assert list(messages) == [(Step.OCR, [first]), (Step.OCR, [second])]
    assert {status_of(first), status_of(second)} == {PuzzleStatus.PENDING}
    for _ in range(2):
        app.tasks[Step.OCR].apply(args=[messages.popleft()[1]])
    with runtime.sessions()() as db:  # past its retries each failed, as a bug does
        for puzzle_id in (first, second):
            failed = db.get_one(Puzzle, puzzle_id)
            assert (failed.status, failed.error_code) == (PuzzleStatus.FAILED, "internal_error")
