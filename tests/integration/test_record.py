"""store.record is idempotent: recording the same thing twice leaves the rows of recording it
once, with the same ids; and the results contract reads them back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.pipeline.board import (
    BoardImage,
    BoardLocation,
    CellImage,
    CellKind,
    Lattice,
    RectifiedBoard,
)
from sudoku_batch.pipeline.errors import NoGridFound, UnreadableInput
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.ingest.sources import PageFormat, PageSource
from sudoku_batch.pipeline.reading import BoardReading, CellReading, RecognisedBoard
from sudoku_batch.pipeline.solve.result import (
    Certificate,
    Doubt,
    PuzzleSolution,
    ReviewReason,
    SolveResult,
    Suggestion,
    Verdict,
)
from sudoku_batch.store.db import make_engine, make_session_factory, transaction
from sudoku_batch.store.migrate import upgrade
from sudoku_batch.store.models import Cell, Page, PuzzleStatus, Solution, StageRun
from sudoku_batch.store.models import Puzzle as PuzzleRow
from sudoku_batch.store.progress import subject_states
from sudoku_batch.store.record import (
    Stage,
    add_input_file,
    add_pages,
    create_batch,
    record_boards,
    record_failure,
    record_reading,
    record_solution,
)
from sudoku_batch.store.results import puzzle_result, result_records, state_counts

pytestmark = pytest.mark.services

SHAPE = GridShape(2, 2)
GIVENS = ((1, 0, 0, 4), (0, 4, 1, 0), (0, 1, 4, 0), (4, 0, 0, 1))
SOLVED = ((1, 2, 3, 4), (3, 4, 1, 2), (2, 1, 4, 3), (4, 3, 2, 1))


def board() -> BoardImage:
    corners = np.array([[10, 10], [110, 10], [110, 110], [10, 110]], np.float32)
    lines = (0.0, 25.0, 50.0, 75.0, 100.0)
    return BoardImage(
        BoardLocation(corners),
        np.zeros((100, 100, 3), np.uint8),
        np.eye(3),
        Lattice(SHAPE, lines, lines),
    )


def found() -> RectifiedBoard:
    """A board as the rectify step leaves it: its cells sorted, the empty ones with their
    confidence."""
    return RectifiedBoard(
        board(),
        tuple(
            CellImage(r, c, CellKind.GIVEN)
            if GIVENS[r][c]
            else CellImage(r, c, CellKind.EMPTY, confidence=0.97)
            for r in range(4)
            for c in range(4)
        ),
    )


def recognised() -> RecognisedBoard:
    reading = BoardReading(
        SHAPE,
        tuple(
            CellReading(r, c, CellKind.GIVEN, GIVENS[r][c], 0.9 - r / 100, ((7, 0.05),))
            if GIVENS[r][c]
            else CellReading(r, c, CellKind.EMPTY)
            for r in range(4)
            for c in range(4)
        ),
    )
    return RecognisedBoard(board(), reading, quarter_turns=1)


def solution(verdict: Verdict = Verdict.SOLVED) -> PuzzleSolution:
    grid = SOLVED if verdict is Verdict.SOLVED else None
    return PuzzleSolution(
        Puzzle(SHAPE, GIVENS),
        SolveResult(verdict, grid, message="" if grid else "the givens clash", backend="kissat"),
        doubts=(Doubt(0, 0, 7, 0.4, 1),),
    )


def sources(label: str) -> list[PageSource]:
    return [
        PageSource(label, page, f"/in/{label}", PageFormat.PDF, index=page - 1) for page in (1, 2)
    ]


def count(db: Session, model: type) -> int:
    return db.scalar(select(func.count()).select_from(model)) or 0


@pytest.fixture(params=["postgresql", "sqlite"])
def both_sessions(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[sessionmaker[Session]]:
    """Both databases: the Celery driver's PostgreSQL and the embedded runner's SQLite."""
    if request.param == "postgresql":
        yield request.getfixturevalue("sessions")  # the run's PostgreSQL database
        return
    url = f"sqlite:///{tmp_path / 'record.sqlite'}"
    upgrade(url)
    engine = make_engine(url)
    yield make_session_factory(engine)
    engine.dispose()


@pytest.fixture
def batch(both_sessions: sessionmaker[Session]) -> tuple[int, int]:
    with transaction(both_sessions) as db:
        batch_id = create_batch(db, "record tests")
        return batch_id, add_input_file(db, batch_id, "book.pdf", "uploads/book.pdf")


def test_each_record_function_replaces_rather_than_duplicates(
    both_sessions: sessionmaker[Session], batch: tuple[int, int]
) -> None:
    batch_id, input_file_id = batch
    snapshots = []
    for _ in range(2):  # a redelivered task runs every step again
        with transaction(both_sessions) as db:
            assert add_input_file(db, batch_id, "book.pdf", "uploads/book.pdf") == input_file_id
            page_ids = add_pages(db, input_file_id, sources("book.pdf"), 0.1, "w1")
            puzzle_ids = record_boards(db, page_ids[0], [found()], ["b.png"], 0.2)
            record_reading(db, puzzle_ids[0], recognised(), "b-upright.png", 0.3)
            record_solution(db, puzzle_ids[0], solution(), "render.png", 0.4)
            record_failure(db, NoGridFound("nothing here"), Stage.RECTIFY, page_id=page_ids[1])
        with both_sessions() as db:
            rows = [count(db, model) for model in (Page, PuzzleRow, Cell, Solution, StageRun)]
            snapshots.append((page_ids, puzzle_ids, rows))
    assert snapshots[0] == snapshots[1]
    page_ids, puzzle_ids, _ = snapshots[0]
    with both_sessions() as db:
        puzzle = db.get_one(PuzzleRow, puzzle_ids[0])
        assert puzzle.status == PuzzleStatus.SOLVED
        assert puzzle.rotation == 1  # the second reading started from the upright board
        assert (
            db.scalar(
                select(func.count()).where(
                    Cell.puzzle_id == puzzle.id, Cell.confidence.is_not(None)
                )
            )
            == 8
        )
        assert db.get_one(Page, page_ids[1]).status == "no_grid"


def test_results_contract_records(
    both_sessions: sessionmaker[Session], batch: tuple[int, int]
) -> None:
    batch_id, input_file_id = batch
    with transaction(both_sessions) as db:
        page_ids = add_pages(db, input_file_id, sources("book.pdf"), 0.1)
        [puzzle_id] = record_boards(db, page_ids[0], [found()], ["b.png"], 0.2)
        record_reading(db, puzzle_id, recognised(), "b-upright.png", 0.3)
        record_solution(db, puzzle_id, solution(Verdict.INVALID), None, 0.4)
        record_failure(db, UnreadableInput("page 2 is damaged"), Stage.RECTIFY, page_id=page_ids[1])
    with both_sessions() as db:
        grid, page_two = result_records(db, batch_id)
        status = state_counts(subject_states(db, batch_id))
        detail = puzzle_result(db, puzzle_id)
    assert grid["source"] == "book.pdf" and grid["page"] == 1 and grid["index"] == 0
    assert grid["status"] == "unsolvable" and grid["error_code"] == "invalid"
    assert grid["message"] == "the givens clash"
    assert grid["size"] == [4, 4] and grid["box"] == [2, 2]
    assert grid["givens"] == [list(row) for row in GIVENS]
    assert grid["solution"] is None
    assert grid["confidence"] == pytest.approx(0.87)
    assert grid["doubts"] == [{"row": 0, "col": 0, "read": 7, "confidence": 0.4, "replaced_by": 1}]
    assert set(grid["seconds"]) == {"rectify", "ocr", "solve"}
    assert page_two["page"] == 2 and page_two["index"] is None
    assert page_two["status"] == "failed" and page_two["message"] == "page 2 is damaged"
    assert status["finished"] and status["pages"] == {"done": 1, "failed": 1}
    assert status["puzzles"] == {"unsolvable": 1}
    assert len(detail["cells"]) == 16 and detail["cells"][0]["alternatives"] == [[7, 0.05]]


def test_the_certificate_and_suggestion_reach_the_results(
    both_sessions: sessionmaker[Session], batch: tuple[int, int]
) -> None:
    batch_id, input_file_id = batch
    doubt = Doubt(0, 0, 7, 0.999, 1)
    reasons = (
        ReviewReason("doubted_reading", "r1c1 read 7 set aside"),
        ReviewReason("unsolvable", "the printed puzzle has no solution as read"),
    )
    unsolvable = PuzzleSolution(
        Puzzle(SHAPE, GIVENS),
        SolveResult(Verdict.UNSOLVABLE, message="the printed puzzle has no solution as read"),
        (doubt,),
        Suggestion(GIVENS, SOLVED, (doubt,)),
        Certificate(False, reasons),
    )
    with transaction(both_sessions) as db:
        page_ids = add_pages(db, input_file_id, sources("book.pdf"), 0.1)
        [puzzle_id] = record_boards(db, page_ids[0], [found()], ["b.png"], 0.2)
        record_reading(db, puzzle_id, recognised(), "b-upright.png", 0.3)
        record_solution(db, puzzle_id, unsolvable, None, 0.4)
    with both_sessions() as db:
        grid = result_records(db, batch_id)[0]
    assert grid["status"] == "unsolvable" and grid["solution"] is None
    assert grid["certified"] is False
    assert grid["review_reasons"] == [
        {"code": "doubted_reading", "message": "r1c1 read 7 set aside"},
        {"code": "unsolvable", "message": "the printed puzzle has no solution as read"},
    ]
    assert grid["suggestion"] == {
        "givens": [list(row) for row in GIVENS],
        "solution": [list(row) for row in SOLVED],
        "doubts": [{"row": 0, "col": 0, "read": 7, "confidence": 0.999, "replaced_by": 1}],
    }
    with transaction(both_sessions) as db:  # read again: the certificate goes with the solution
        record_reading(db, puzzle_id, recognised(), "b-upright.png", 0.3)
    with both_sessions() as db:
        grid = result_records(db, batch_id)[0]
    assert grid["certified"] is None and grid["suggestion"] is None
