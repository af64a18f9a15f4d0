"""A puzzle as the review page and the results show it: a puzzle a solver began, each cell's
ink, the pencil candidates and the entries checked against the solution; a jigsaw's region
borders on its board, as its render draws them (``reports.board_lines``; the edges and the
rule: tests/test_board_lines.py)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.api.auth import KEY_COOKIE
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import BoardReading, CellReading, InkKind
from sudoku_batch.pipeline.region_lines import region_borders
from sudoku_batch.pipeline.solve.entries import check_entries, entries_json
from sudoku_batch.settings import Settings
from sudoku_batch.store.record import ink_grid
from sudoku_batch.store.results_view import cell_readings
from sudoku_batch.synth.unique import unique_puzzle
from sudoku_batch.synth.variant_puzzles import random_regions
from tests.integration.conftest import api_client
from tests.integration.stored_puzzle import store_puzzle

pytestmark = pytest.mark.services

SHAPE = GridShape(3, 3)


@pytest.fixture(scope="module")
def client(make_settings: Callable[[str], Settings]) -> Iterator[TestClient]:
    with api_client(make_settings("ink_review"), f"solver-{uuid.uuid4().hex[:8]}") as client:
        yield client


def review_page(client: TestClient, public_id: uuid.UUID) -> str:
    """A puzzle's review page as the owner of ``client``'s key sees it."""
    key = client.headers["Authorization"].removeprefix("Bearer ")
    with TestClient(client.app, cookies={KEY_COOKIE: key}) as browser:
        shown = browser.get(f"/ui/puzzles/{public_id}")
    assert shown.status_code == 200, shown.text
    return shown.text


def test_the_review_page_shows_each_cells_ink_and_the_entries_checked(
    client: TestClient, sessions: sessionmaker[Session]
) -> None:
    generated = unique_puzzle(SHAPE, np.random.default_rng(27), givens=30)
    givens, solution = generated.puzzle.givens, generated.solution
    blanks = [(r, c) for r in range(9) for c in range(9) if givens[r][c] == 0]
    (wr, wc), (pr, pc) = blanks[0], blanks[1]
    wrong = solution[wr][wc] % 9 + 1
    candidates = tuple(sorted({solution[pr][pc] % 9 + 1, (solution[pr][pc] + 1) % 9 + 1}))
    cells = []
    for r in range(9):
        for c in range(9):
            if givens[r][c]:
                cells.append(
                    CellReading(r, c, CellKind.GIVEN, givens[r][c], 0.99, ink=InkKind.GIVEN)
                )
            elif (r, c) == (wr, wc):
                cells.append(
                    CellReading(r, c, CellKind.EMPTY, wrong, 0.99, ink=InkKind.HANDWRITTEN)
                )
            elif (r, c) == (pr, pc):
                cells.append(
                    CellReading(r, c, CellKind.EMPTY, ink=InkKind.PENCIL, candidates=candidates)
                )
            else:
                cells.append(CellReading(r, c, CellKind.EMPTY, confidence=0.99, ink=InkKind.EMPTY))
    reading = BoardReading(SHAPE, tuple(cells))
    checks = entries_json(check_entries(reading.cells, solution))
    puzzle = {
        "status": "solved",
        "givens": [list(row) for row in givens],
        "lowest_confidence": 0.99,
        "ink": ink_grid(reading),
    }
    cells = [
        {
            "row": cell.row,
            "col": cell.col,
            "kind": str(cell.kind),
            "digit": cell.digit,
            "confidence": cell.confidence,
            "alternatives": [],
            "ink": str(cell.ink),
            "candidates": list(cell.candidates),
        }
        for cell in reading.cells
    ]
    solved = {"verdict": "solved", "grid": [list(row) for row in solution], "entries_check": checks}
    puzzle_id, public_id = store_puzzle(client, sessions, puzzle, cells, solved)
    shown = review_page(client, public_id)
    assert f'data-row="{wr}" data-col="{wc}"' in shown
    assert "ink-handwritten" in shown and "ink-pencil" in shown
    finding = f"r{wr + 1}c{wc + 1}: {wrong} written, {solution[wr][wc]} is right"
    assert finding in shown
    assert "1 handwritten" in shown and "1 pencil" in shown
    record = client.get(f"/puzzles/{public_id}").json()
    assert record["entries_check"][0]["finding"] == finding
    assert record["ink"][wr][wc] == "handwritten" and record["ink"][pr][pc] == "pencil"
    with sessions.begin() as db:
        rows = db.execute(
            select(cell_readings.c.ink, cell_readings.c.candidates).where(
                cell_readings.c.puzzle_id == puzzle_id,
                cell_readings.c.row == pr,
                cell_readings.c.col == pc,
            )
        ).all()
    assert rows == [("pencil", list(candidates))]


def test_the_board_of_a_jigsaw_shows_its_region_borders(
    client: TestClient, sessions: sessionmaker[Session]
) -> None:
    regions = random_regions(9, np.random.default_rng(8))
    puzzle = {
        "status": "unsolvable",
        "givens": [[0] * 9 for _ in range(9)],
        "variant": "jigsaw",
        "regions": regions,
    }
    cells = [
        {"row": r, "col": c, "kind": "empty", "confidence": 0.99, "alternatives": []}
        for r in range(9)
        for c in range(9)
    ]
    _, public_id = store_puzzle(client, sessions, puzzle, cells, {"verdict": "unsolvable"})
    shown = review_page(client, public_id)
    board = shown[shown.index('id="board"') : shown.index("</svg>")]
    assert len(re.findall(r'<line class="region-line"', board)) == len(region_borders(regions))
