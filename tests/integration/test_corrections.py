"""Cell corrections through the API (``PATCH /puzzles/{id}/cells/{row}/{col}``) on the test
database and a Redis prefix of its own (no workers: the queued solve is checked in Redis):
kept beside the reading, in the history, in results; refused when it cannot be one."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import numpy as np
import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.api.auth import KEY_COOKIE, UI_HEADER
from sudoku_batch.api.schemas import PuzzleDetail
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.settings import Settings
from sudoku_batch.store import load
from sudoku_batch.store.models import (
    ApiKey,
    Batch,
    Cell,
    CellCorrection,
    Puzzle,
    Solution,
)
from sudoku_batch.store.results_view import cell_readings
from sudoku_batch.synth.unique import unique_puzzle
from tests.integration.conftest import api_client, form_token
from tests.integration.stored_puzzle import store_puzzle

pytestmark = pytest.mark.services

SHAPE = GridShape(3, 3)


@pytest.fixture(scope="module")
def settings(make_settings: Callable[[str], Settings]) -> Settings:
    return make_settings("corrections")


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings, f"reviewer-{uuid.uuid4().hex[:8]}") as client:
        yield client


@pytest.fixture(scope="module")
def stranger(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


@pytest.fixture
def misread(client: TestClient, sessions: sessionmaker[Session]) -> tuple[uuid.UUID, int, int]:
    """A 9x9 puzzle of ``client``'s, unsolvable as read: its first given in row 0 was read as
    the digit of another given in that row (so the two clash). Answers the puzzle's public id
    and the misread cell's column and true digit."""
    generated = unique_puzzle(SHAPE, np.random.default_rng(15), givens=30)
    givens = [list(row) for row in generated.puzzle.givens]
    first, second = [c for c, v in enumerate(givens[0]) if v][:2]
    true_digit, givens[0][first] = givens[0][first], givens[0][second]
    puzzle = {
        "status": "unsolvable",
        "givens": givens,
        "lowest_confidence": 0.8,
        "error_code": "invalid",
    }
    cells = [
        {
            "row": r,
            "col": c,
            "kind": "given" if v else "empty",
            "digit": v or None,
            "confidence": 0.8 if (r, c) == (0, first) else 0.99,
            "alternatives": [[true_digit, 0.15]] if (r, c) == (0, first) else [],
        }
        for r, row in enumerate(givens)
        for c, v in enumerate(row)
    ]
    _, public_id = store_puzzle(client, sessions, puzzle, cells, {"verdict": "invalid"})
    return public_id, first, true_digit


def solve_queue_length(settings: Settings) -> int:
    return redis.Redis.from_url(settings.broker_url).llen(f"{settings.redis_key_prefix}solve")


def test_a_correction_is_kept_beside_the_reading_and_the_puzzle_is_solved_again(
    client: TestClient,
    settings: Settings,
    sessions: sessionmaker[Session],
    misread: tuple[uuid.UUID, int, int],
) -> None:
    puzzle_id, col, digit = misread
    with sessions() as db:
        puzzle = db.scalars(select(Puzzle).where(Puzzle.public_id == puzzle_id)).one()
        read = db.scalars(select(Cell).where(Cell.puzzle_id == puzzle.id, Cell.row == 0)).all()
        read_before = [(c.col, c.kind, c.digit, c.confidence, c.alternatives) for c in read]
    queued_before = solve_queue_length(settings)

    response = client.patch(f"/puzzles/{puzzle_id}/cells/0/{col}", json={"digit": digit})

    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["old"] == {"kind": "given", "digit": read_before[col][2]}
    assert answer["new"] == {"kind": "given", "digit": digit}
    assert answer["status"] == "read" and answer["queued"]
    assert answer["corrected_by"].startswith("reviewer-")
    assert solve_queue_length(settings) == queued_before + 1
    with sessions() as db:
        read = db.scalars(select(Cell).where(Cell.puzzle_id == puzzle.id, Cell.row == 0)).all()
        assert [(c.col, c.kind, c.digit, c.confidence, c.alternatives) for c in read] == (
            read_before
        ), "the reading itself is never changed"
        (stored,) = db.scalars(select(CellCorrection).where(CellCorrection.puzzle_id == puzzle.id))
        key_name = db.scalar(select(ApiKey.name).where(ApiKey.id == stored.api_key_id))
        assert (stored.row, stored.col, stored.new_kind, stored.new_digit) == (
            0,
            col,
            "given",
            digit,
        )
        assert (stored.old_kind, stored.old_digit) == ("given", read_before[col][2])
        assert key_name == answer["corrected_by"]
        assert db.get_one(Puzzle, puzzle.id).status == "read"
        assert db.scalar(select(Solution).where(Solution.puzzle_id == puzzle.id)) is None
        # What the solve step reads: the correction, certain (never doubted), no runner-ups.
        cell = load.stored_reading(db, puzzle.id).cells[col]
        assert (cell.kind, cell.digit, cell.confidence, cell.alternatives) == (
            CellKind.GIVEN, digit, None, ()
        )  # fmt: skip
        flags = db.execute(
            select(cell_readings.c.col, cell_readings.c.corrected).where(
                cell_readings.c.puzzle_id == puzzle.id, cell_readings.c.row == 0
            )
        ).all()
        assert {c for c, corrected in flags if corrected} == {col}

    detail = client.get(f"/puzzles/{puzzle_id}")
    assert detail.status_code == 200
    record = PuzzleDetail.model_validate(detail.json())
    assert record.corrected and record.status == "read"
    assert [(c.row, c.col, c.new.digit, c.corrected_by) for c in record.corrections] == [
        (0, col, digit, answer["corrected_by"])
    ]
    assert record.cells[col].digit == read_before[col][2], "cells stay as read"
    results = client.get(f"/batches/{detail.json()['batch_id']}/results").json()["items"]
    assert [r["corrected"] for r in results if r["puzzle_id"] == str(puzzle_id)] == [True]


def test_every_correction_is_in_the_history_oldest_first(
    client: TestClient, sessions: sessionmaker[Session], misread: tuple[uuid.UUID, int, int]
) -> None:
    puzzle_id, col, digit = misread
    url = f"/puzzles/{puzzle_id}/cells/0/{col}"
    assert client.patch(url, json={"kind": "empty"}).status_code == 200
    # Another correction waits for the verdict of the first: the solve step would give it.
    assert client.patch(url, json={"digit": digit}).status_code == 409
    with sessions.begin() as db:
        db.execute(update(Puzzle).where(Puzzle.public_id == puzzle_id).values(status="solved"))
    assert client.patch(url, json={"digit": digit}).status_code == 200
    history = client.get(f"/puzzles/{puzzle_id}").json()["corrections"]
    assert [(h["old"]["kind"], h["new"]["kind"]) for h in history] == [
        ("given", "empty"),
        ("empty", "given"),
    ]


def test_a_correction_needs_the_owners_key_and_from_a_cookie_the_pages_header(
    client: TestClient,
    stranger: TestClient,
    settings: Settings,
    misread: tuple[uuid.UUID, int, int],
) -> None:
    puzzle_id, col, digit = misread
    url = f"/puzzles/{puzzle_id}/cells/0/{col}"
    with TestClient(client.app) as anonymous:
        assert anonymous.patch(url, json={"digit": digit}).status_code == 401
        key = client.headers["Authorization"].removeprefix("Bearer ")
        anonymous.cookies.set(KEY_COOKIE, key)
        assert anonymous.get(f"/puzzles/{puzzle_id}").status_code == 200
        assert anonymous.patch(url, json={"digit": digit}).status_code == 403
        headed = anonymous.patch(url, json={"digit": digit}, headers={UI_HEADER: "1"})
        assert headed.status_code == 200
    assert stranger.patch(url, json={"digit": digit}).status_code == 404


@pytest.mark.parametrize(
    ("cell", "body"),
    [
        ("9/0", {"digit": 1}),
        ("0/9", {"digit": 1}),
        ("-1/0", {"digit": 1}),
        ("0/0", {"digit": 10}),
        ("0/0", {"digit": 0}),
        ("0/0", {"kind": "given"}),
        ("0/0", {"kind": "empty", "digit": 3}),
        ("0/0", {"kind": "pencilled"}),
    ],
)
def test_a_cell_off_the_grid_or_a_digit_out_of_range_answers_422(
    client: TestClient,
    sessions: sessionmaker[Session],
    misread: tuple[uuid.UUID, int, int],
    cell: str,
    body: dict,
) -> None:
    puzzle_id, _, _ = misread
    response = client.patch(f"/puzzles/{puzzle_id}/cells/{cell}", json=body)
    assert response.status_code == 422, response.text
    with sessions() as db:
        puzzle = db.scalars(select(Puzzle).where(Puzzle.public_id == puzzle_id)).one()
        assert puzzle.status == "unsolvable"
        assert not db.scalars(
            select(CellCorrection).where(CellCorrection.puzzle_id == puzzle.id)
        ).all()


def test_the_pages_need_a_login_and_show_only_the_keys_own_puzzles(
    client: TestClient, stranger: TestClient, misread: tuple[uuid.UUID, int, int]
) -> None:
    puzzle_id, col, _ = misread
    page = f"/ui/puzzles/{puzzle_id}"
    key = client.headers["Authorization"].removeprefix("Bearer ")
    with TestClient(client.app, follow_redirects=False) as browser:
        sent_away = browser.get(page)
        assert sent_away.status_code == 303
        assert sent_away.headers["location"] == f"/ui/login?next={page}"
        token = form_token(browser)
        refused = browser.post(
            "/ui/login", data={"key": "sbk_not-a-key", "next": page, "form_token": token}
        )
        assert "failed=true" in refused.headers["location"] and KEY_COOKIE not in browser.cookies
        # A login never sends the browser off to another site.
        offsite = browser.post(
            "/ui/login", data={"key": key, "next": "//evil.example/ui/", "form_token": token}
        )
        assert offsite.headers["location"] == "/ui/"
        cookie = offsite.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=strict" in cookie
        shown = browser.get(page)
        assert shown.status_code == 200 and "unsolvable" in shown.text
        assert f'data-row="0" data-col="{col}"' in shown.text
        assert browser.get(f"/puzzles/{puzzle_id}/board.png").status_code == 404  # none stored
        browser.post("/ui/logout", data={"form_token": token})
        assert browser.get(page).status_code == 303
    stranger_key = stranger.headers["Authorization"].removeprefix("Bearer ")
    with TestClient(client.app, cookies={KEY_COOKIE: stranger_key}) as other:
        assert other.get(page).status_code == 404


def test_correcting_a_grid_taken_for_another_kind_makes_it_a_puzzle_to_solve(
    client: TestClient,
    sessions: sessionmaker[Session],
    misread: tuple[uuid.UUID, int, int],
) -> None:
    puzzle_id, col, digit = misread
    with sessions.begin() as db:
        db.execute(
            update(Puzzle)
            .where(Puzzle.public_id == puzzle_id)
            .values(status="not_sudoku", role="other", other_reason="not a Sudoku: a test")
        )
    response = client.patch(f"/puzzles/{puzzle_id}/cells/0/{col}", json={"digit": digit})
    assert response.status_code == 200, response.text
    with sessions() as db:
        puzzle = db.scalars(select(Puzzle).where(Puzzle.public_id == puzzle_id)).one()
        assert puzzle.status == "read" and puzzle.other_reason is None
        assert load.stored_reading(db, puzzle.id).other_reason is None


def test_the_review_pages_count_certified_grids_and_show_a_suggestion(
    client: TestClient, sessions: sessionmaker[Session], misread: tuple[uuid.UUID, int, int]
) -> None:
    puzzle_id, col, true_digit = misread
    with sessions.begin() as db:
        puzzle = db.scalars(select(Puzzle).where(Puzzle.public_id == puzzle_id)).one()
        batch_id = db.get_one(Batch, puzzle.batch_id).public_id
        read = puzzle.givens[0][col]
        puzzle.certified = False
        puzzle.review_reasons = [{"code": "doubted_reading", "message": "r1c1 set aside"}]
        repaired = [list(row) for row in puzzle.givens]
        repaired[0][col] = true_digit
        solution = db.scalars(select(Solution).where(Solution.puzzle_id == puzzle.id)).one()
        doubt = {"row": 0, "col": col, "read": read, "confidence": 0.999, "replaced_by": true_digit}
        solution.suggestion = {"givens": repaired, "solution": repaired, "doubts": [doubt]}
    key = client.headers["Authorization"].removeprefix("Bearer ")
    with TestClient(client.app, cookies={KEY_COOKIE: key}) as browser:
        batch_page = browser.get(f"/ui/batches/{batch_id}")
        assert batch_page.status_code == 200
        assert "0 certified, 1 needs review." in batch_page.text
        assert "r1c1 set aside" in batch_page.text
        shown = browser.get(f"/ui/puzzles/{puzzle_id}").text
        assert 'id="suggestion"' in shown
        assert f"row 1, column {col + 1} as {true_digit} (printed {read})" in shown
        assert 'id="certified"' not in shown
