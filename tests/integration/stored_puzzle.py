"""A puzzle stored as the workers would leave it, in a batch submitted through the API: for the
tests of what the API and the pages make of a puzzle, with no worker running."""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.store.models import Batch, Cell, InputFile, Page, Puzzle, Solution

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


def store_puzzle(
    client: TestClient,
    sessions: sessionmaker[Session],
    puzzle: dict,
    cells: Iterable[dict],
    solution: dict,
) -> tuple[int, uuid.UUID]:
    """A new batch of ``client``'s, one image whose one page (done) holds one 9x9 puzzle: the
    puzzle's columns beyond its place (``puzzle``), its cells' beyond the puzzle and its
    solution's beyond the puzzle and no doubts. Answers the puzzle's row id and public id."""
    submitted = client.post("/batches", files=[("files", ("grid.png", PNG))])
    assert submitted.status_code == 201, submitted.text
    with sessions.begin() as db:
        batch = db.scalars(select(Batch).where(Batch.public_id == submitted.json()["batch_id"]))
        batch_id = batch.one().id
        input_file = db.scalars(select(InputFile).where(InputFile.batch_id == batch_id)).one()
        page = Page(
            batch_id=batch_id, input_file_id=input_file.id, source="grid.png", page_number=1,
            format="image", status="done",
        )  # fmt: skip
        db.add(page)
        db.flush()
        row = Puzzle(
            batch_id=batch_id, page_id=page.id, index_on_page=0, size=9, box_rows=3, box_cols=3,
            **puzzle,
        )  # fmt: skip
        db.add(row)
        db.flush()
        db.add_all(Cell(puzzle_id=row.id, **cell) for cell in cells)
        db.add(Solution(puzzle_id=row.id, doubts=[], **solution))
        return row.id, row.public_id
