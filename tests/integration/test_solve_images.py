"""The solve task decodes the board and its page region only to draw a unique solution; the
OCR task, which solves what it read, decodes neither board (it holds it) nor region for any
other."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from sudoku_batch.jobs.table import Step
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import transaction
from sudoku_batch.store.handover import solve_again
from sudoku_batch.store.models import Cell, Puzzle, PuzzleStatus
from sudoku_batch.workers import runtime
from sudoku_batch.workers.app import app
from sudoku_batch.workers.tasks import ingest, ocr, rectify, solve  # noqa: F401 - registers the tasks
from tests.integration.test_statements_per_task import page_to_ingest
from tests.test_cached_artifacts import decoded_images

pytestmark = pytest.mark.services


def test_only_a_unique_solution_has_its_images_decoded(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = runtime.sessions()
    _, messages = page_to_ingest(worker_runtime, sessions, monkeypatch)
    while messages[0][0] != Step.OCR:  # every stage before reading
        step, subject = messages.popleft()
        app.tasks[str(step)].apply(args=[subject])
    unique, emptied = messages.popleft()[1]  # the page's boards, in one OCR message
    decoded = decoded_images(monkeypatch)
    app.tasks[Step.OCR].apply(args=[[unique, emptied]])
    # Both unique, so drawn: only their regions decoded (the boards were kept from rectify).
    assert [name.rsplit(".", 1)[1] for name in decoded] == ["jpg", "jpg"]
    assert not messages  # solved in the OCR task, no solve task sent
    with transaction(sessions) as db:  # no givens left: many solutions, none drawn
        for puzzle in db.query(Puzzle).filter(Puzzle.id.in_((unique, emptied))):
            solve_again(db, puzzle)
        db.execute(update(Cell).where(Cell.puzzle_id == emptied).values(kind="empty", digit=None))

    decoded.clear()
    app.tasks[Step.SOLVE].apply(args=[emptied])
    assert decoded == []
    app.tasks[Step.SOLVE].apply(args=[unique])
    assert [name.rsplit(".", 1)[1] for name in decoded] == ["jpg"]  # the region (board: kept)
    with sessions() as db:
        assert db.get_one(Puzzle, emptied).status == PuzzleStatus.MULTIPLE_SOLUTIONS
        assert db.get_one(Puzzle, unique).status == PuzzleStatus.SOLVED
