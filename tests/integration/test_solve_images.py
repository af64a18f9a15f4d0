"""The solve task decodes the board and its page region only to draw a unique solution."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from settings import Settings
from store.db import transaction
from store.handover import Step
from store.models import Cell, Puzzle, PuzzleStatus
from tests.integration.test_statements_per_task import page_to_ingest
from tests.test_cached_artifacts import decoded_images
from workers import runtime
from workers.app import app
from workers.tasks import ingest, ocr, rectify, solve  # noqa: F401 - registers the tasks

pytestmark = pytest.mark.services


def test_only_a_unique_solution_has_its_images_decoded(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = runtime.sessions()
    _, messages = page_to_ingest(worker_runtime, sessions, monkeypatch)
    while messages[0][0] != Step.SOLVE:  # every stage before solving
        step, subject_id = messages.popleft()
        app.tasks[str(step)].apply(args=[subject_id])
    unique, emptied = (subject_id for _, subject_id in messages)
    with transaction(sessions) as db:  # no givens left: many solutions, none drawn
        db.execute(update(Cell).where(Cell.puzzle_id == emptied).values(kind="empty", digit=None))

    decoded = decoded_images(monkeypatch)
    app.tasks[Step.SOLVE].apply(args=[emptied])
    assert decoded == []
    app.tasks[Step.SOLVE].apply(args=[unique])
    assert [name.rsplit(".", 1)[1] for name in decoded] == ["jpg"]  # the region (board: kept)
    with sessions() as db:
        assert db.get_one(Puzzle, emptied).status == PuzzleStatus.MULTIPLE_SOLUTIONS
        assert db.get_one(Puzzle, unique).status == PuzzleStatus.SOLVED
