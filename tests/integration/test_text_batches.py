"""Text files of puzzles as solve-only batches: submitted through the API (queued, checked in
Redis), then their tasks run eagerly in this process on the test database."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.api.schemas import ResultRecord
from sudoku_batch.jobs.table import Step
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import transaction
from sudoku_batch.store.models import Batch, InputFile, Solution
from sudoku_batch.store.progress import subject_states
from sudoku_batch.store.record import add_input_file, create_batch
from sudoku_batch.store.results import result_records, state_counts
from sudoku_batch.workers.app import app
from sudoku_batch.workers.tasks.ingest_text import ingest_text_file
from sudoku_batch.workers.tasks.solve_text import solve_text_puzzle
from tests.integration.conftest import api_client, queued
from tests.solve.variants import (
    DIAGONAL,
    DIAGONAL_SOLVED,
    JIGSAW,
    JIGSAW_REGIONS,
    JIGSAW_SOLVED,
    grid_of,
)

pytestmark = pytest.mark.services

SOLVABLE = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
SOLVED = "621943758783615492594728361142879635357461289869532174238197546916354827475286913"
# No two givens clash, yet r1c9 can only be 9 and column 9 has one already.
UNSOLVABLE = "12345678." + "........9" + "." * 63
MANY_SOLUTIONS = "." * 81
PUZZLES = "\n".join(
    [
        "# a solvable, an unsolvable, a many-solution and a malformed line",
        SOLVABLE,
        UNSOLVABLE,
        "",
        MANY_SOLUTIONS,
        "not-a-puzzle",
    ]
).encode()


def rows(line: str) -> list[list[int]]:
    return [[int(ch) if ch != "." else 0 for ch in line[r * 9 : r * 9 + 9]] for r in range(9)]


@pytest.fixture(scope="module")
def settings(make_settings: Callable[[str], Settings]) -> Settings:
    return make_settings("text-api")


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def test_submit_text_stores_the_file_with_its_box_and_queues_a_text_ingest(
    client: TestClient, settings: Settings, sessions: sessionmaker[Session]
) -> None:
    response = client.post(
        "/text-batches",
        files=[("files", ("sixes.txt", b"1" + b"." * 35 + b"\n"))],
        data={"label": "sixes", "box": "3x2"},
    )
    assert response.status_code == 201, response.text
    batch = response.json()
    [message] = queued(settings, "ingest")
    assert message["headers"]["task"] == Step.INGEST_TEXT
    with sessions() as db:
        batch_row = db.scalars(select(Batch).where(Batch.public_id == batch["batch_id"])).one()
        input_file = db.scalars(select(InputFile).where(InputFile.batch_id == batch_row.id)).one()
        assert (input_file.name, input_file.box_rows, input_file.box_cols) == ("sixes.txt", 3, 2)
        assert input_file.is_text and input_file.queued_at is not None
    # Flower shows where the work comes from, not just an id.
    short = batch["batch_id"][:8]
    assert message["headers"]["argsrepr"] == f"({input_file.id}: batch {short} file sixes.txt)"
    status = client.get(f"/batches/{batch['batch_id']}").json()
    assert status["inputs"] == {"pending": 1} and not status["finished"]


def test_a_box_that_is_not_rows_x_cols_answers_422(client: TestClient) -> None:
    for box in ("3", "3x", "0x3", "3x4x5", "ax b"):
        response = client.post(
            "/text-batches", files=[("files", ("p.txt", b"."))], data={"box": box}
        )
        assert response.status_code == 422, box


def run_text_batch(
    settings: Settings,
    sessions: sessionmaker[Session],
    monkeypatch: pytest.MonkeyPatch,
    content: bytes = PUZZLES,
) -> tuple[int, list[int]]:
    """Ingest the text file eagerly, then solve each puzzle it queued; (batch, puzzle ids)."""
    with transaction(sessions) as db:
        batch_id = create_batch(db, "text")
        stored = f"batches/{batch_id}/uploads/0000-puzzles.txt"
        settings.data_dir.joinpath(stored).parent.mkdir(parents=True)
        settings.data_dir.joinpath(stored).write_bytes(content)
        input_file_id = add_input_file(db, batch_id, "puzzles.txt", stored, text=True)
    queued: list[tuple[str, Any]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args, **_: queued.append((name, args)))
    handed_on = []
    for _ in range(2):  # a redelivered ingest finds the file ingested, and does nothing
        queued.clear()
        assert ingest_text_file.apply(args=[input_file_id]).successful()
        handed_on.append([args[0] for _, args in queued])
    assert {name for name, _ in queued} <= {Step.SOLVE_TEXT}
    puzzle_ids = handed_on[0]
    assert puzzle_ids and handed_on[1] == []
    for puzzle_id in puzzle_ids:
        assert solve_text_puzzle.apply(args=[puzzle_id]).successful()
    return batch_id, puzzle_ids


def test_each_line_is_solved_as_written_and_a_malformed_line_fails_alone(
    worker_runtime: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    batch_id, puzzle_ids = run_text_batch(worker_runtime, sessions, monkeypatch)
    with sessions() as db:
        records = result_records(db, batch_id)
        status = state_counts(subject_states(db, batch_id))
        renders = db.scalars(select(Solution.render_path).where(Solution.puzzle_id.in_(puzzle_ids)))
        assert set(renders) == {None}

    assert [(r["source"], r["page"], r["index"]) for r in records] == [
        ("puzzles.txt", 2, 0),
        ("puzzles.txt", 3, 0),
        ("puzzles.txt", 5, 0),
        ("puzzles.txt", 6, None),
    ]
    solvable, unsolvable, many, malformed = records
    assert solvable["status"] == "solved" and solvable["solution"] == rows(SOLVED)
    assert solvable["givens"] == rows(SOLVABLE) and solvable["confidence"] == 1.0
    assert solvable["puzzle_id"] == puzzle_ids[0] and solvable["corners"] is None
    assert unsolvable["status"] == "unsolvable" and unsolvable["doubts"] == []
    assert many["status"] == "multiple_solutions" and many["second_solution"]
    assert malformed["status"] == "failed" and malformed["error_code"] == "malformed_text"
    assert "12 symbols do not make a square grid" in malformed["message"]
    assert status["finished"] and status["pages"] == {"done": 3, "failed": 1}


def test_jigsaw_and_diagonal_lines_are_solved_on_their_units_and_keep_them_in_the_results(
    worker_runtime: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solve task reads the puzzle back from its row: the regions and diagonals with it."""
    content = "\n".join([JIGSAW, DIAGONAL]).encode()
    batch_id, _ = run_text_batch(worker_runtime, sessions, monkeypatch, content)
    with sessions() as db:
        jigsaw, diagonal = result_records(db, batch_id)
    assert jigsaw["status"] == "solved" and jigsaw["variant"] == "jigsaw"
    assert jigsaw["solution"] == [list(row) for row in grid_of(JIGSAW_SOLVED)]
    assert jigsaw["regions"] == [
        [int(s) for s in JIGSAW_REGIONS[r * 9 : r * 9 + 9]] for r in range(9)
    ]
    assert diagonal["status"] == "solved" and diagonal["variant"] == "diagonal"
    assert diagonal["solution"] == [list(row) for row in grid_of(DIAGONAL_SOLVED)]
    answer = ResultRecord.model_validate({**jigsaw, "batch_id": uuid.uuid4(), "puzzle_id": None})
    assert (answer.variant, answer.regions) == ("jigsaw", jigsaw["regions"])
