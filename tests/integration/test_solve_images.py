"""The solve task decodes the board and its page region only to draw a unique solution."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import cv2
import numpy as np
import pytest
from sqlalchemy import update

from settings import Settings
from store import artifacts as artifacts_module
from store.db import transaction
from store.handover import Step
from store.models import Cell, Puzzle, PuzzleStatus
from store.record import add_input_file, create_batch
from tests.integration.test_statements_per_task import page_of_two_grids
from workers import publish, runtime
from workers.app import app
from workers.tasks import ingest, ocr, rectify, solve  # noqa: F401 - registers the tasks

pytestmark = pytest.mark.services


def test_only_a_unique_solution_has_its_images_decoded(
    worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = runtime.sessions()
    stored = "uploads/two-grids.png"
    path = worker_runtime.data_dir / stored
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), page_of_two_grids())
    with transaction(sessions) as db:
        batch_id = create_batch(db, "solve images")
        input_file_id = add_input_file(db, batch_id, "two-grids.png", stored)
    messages: deque[tuple[str, int]] = deque([(Step.INGEST, input_file_id)])
    monkeypatch.setattr(
        publish, "send", lambda _queue, handoff: messages.append((handoff.step, handoff.subject_id))
    )
    while messages[0][0] != Step.SOLVE:  # every stage before solving
        step, subject_id = messages.popleft()
        app.tasks[str(step)].apply(args=[subject_id])
    unique, emptied = (subject_id for _, subject_id in messages)
    with transaction(sessions) as db:  # no givens left: many solutions, none drawn
        db.execute(update(Cell).where(Cell.puzzle_id == emptied).values(kind="empty", digit=None))

    decoded: list[str] = []
    imread = cv2.imread

    def counted(path: str, *args: int) -> np.ndarray | None:
        decoded.append(Path(path).name)
        return imread(path, *args)

    monkeypatch.setattr(artifacts_module.cv2, "imread", counted)
    app.tasks[Step.SOLVE].apply(args=[emptied])
    assert decoded == []
    app.tasks[Step.SOLVE].apply(args=[unique])
    assert [name.rsplit(".", 1)[1] for name in decoded] == ["jpg"]  # the region (board: kept)
    with sessions() as db:
        assert db.get_one(Puzzle, emptied).status == PuzzleStatus.MULTIPLE_SOLUTIONS
        assert db.get_one(Puzzle, unique).status == PuzzleStatus.SOLVED
