"""A person's corrections of cells, kept beside the reading (``cells`` rows are never changed).

A correction is one ``cell_corrections`` row: who, when, the cell before (as read, or as last
corrected) and after. The latest correction of a cell is what the solve step reads for it
(``store.load.stored_reading``), as certain: it is never doubted. Correcting a cell sends its
puzzle back to wait for the solve step (``store.handover.solve_again``); the caller commits,
then hands it to the queue.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.store.handover import solve_again
from sudoku_batch.store.models import ApiKey, Cell, CellCorrection, Puzzle, PuzzleStatus

# A puzzle is corrected once its verdict is in: a correction made while it is being read or
# solved could be overtaken by that run's outcome.
CORRECTABLE = (
    PuzzleStatus.SOLVED,
    PuzzleStatus.UNSOLVABLE,
    PuzzleStatus.MULTIPLE_SOLUTIONS,
    PuzzleStatus.TIMEOUT,
    PuzzleStatus.FAILED,
    PuzzleStatus.NOT_SUDOKU,
)


class BadCorrection(SudokuBatchError):
    """A correction that cannot be one: a cell off the grid, a digit out of range."""

    code = "bad_correction"


class CorrectionRefused(SudokuBatchError):
    """A puzzle that cannot be corrected now: still being read or solved, or given as text."""

    code = "correction_refused"


@dataclass(frozen=True)
class CellValue:
    kind: CellKind
    digit: int | None = None


@dataclass(frozen=True)
class Correction:
    row: int
    col: int
    old: CellValue
    new: CellValue
    corrected_by: str | None  # the API key's name
    corrected_at: datetime


def checked_value(kind: CellKind, digit: int | None, size: int) -> CellValue:
    """A cell's new value, if it can be one on a grid of ``size``: a given has a digit 1..size,
    an empty or blocked cell none."""
    if kind is CellKind.GIVEN:
        if digit is None or not 1 <= digit <= size:
            raise BadCorrection(f"a given cell needs a digit from 1 to {size}")
    elif digit is not None:
        raise BadCorrection(f"an {kind} cell holds no digit")
    return CellValue(kind, digit)


def correct_cell(
    session: Session,
    puzzle_id: int,
    row: int,
    col: int,
    new: CellValue,
    api_key_id: int | None,
) -> Correction:
    """Record ``new`` for one cell and make the puzzle wait for the solve step again."""
    puzzle = session.scalar(select(Puzzle).where(Puzzle.id == puzzle_id).with_for_update())
    if puzzle is None:
        raise LookupError(f"there is no puzzle {puzzle_id}")
    if puzzle.status not in CORRECTABLE:
        raise CorrectionRefused(f"the puzzle is {puzzle.status}: correct it once its verdict is in")
    cells = current_cells(session, puzzle_id)
    if not cells:
        raise CorrectionRefused("the puzzle has no cells read (given as text): nothing to correct")
    size = puzzle.size or 0
    if not (0 <= row < size and 0 <= col < size):
        raise BadCorrection(f"row and column run from 0 to {size - 1} on this grid")
    checked_value(new.kind, new.digit, size)
    old = cells[(row, col)]
    correction = CellCorrection(
        puzzle_id=puzzle_id,
        row=row,
        col=col,
        api_key_id=api_key_id,
        old_kind=str(old.kind),
        old_digit=old.digit,
        new_kind=str(new.kind),
        new_digit=new.digit,
    )
    session.add(correction)
    # A person correcting a cell takes the grid for a Sudoku, whatever the reader made of it.
    puzzle.other_reason = None
    solve_again(session, puzzle)
    session.flush()
    return Correction(row, col, old, new, _key_name(session, api_key_id), correction.corrected_at)


def current_cells(session: Session, puzzle_id: int) -> dict[tuple[int, int], CellValue]:
    """Every cell as read, with its latest correction applied."""
    cells = {
        (cell.row, cell.col): CellValue(CellKind(cell.kind), cell.digit)
        for cell in session.scalars(select(Cell).where(Cell.puzzle_id == puzzle_id))
    }
    return {**cells, **latest_corrections(session, puzzle_id)} if cells else {}


def latest_corrections(session: Session, puzzle_id: int) -> dict[tuple[int, int], CellValue]:
    """Each corrected cell's latest value."""
    rows = session.scalars(
        select(CellCorrection)
        .where(CellCorrection.puzzle_id == puzzle_id)
        .order_by(CellCorrection.id)
    )
    return {(c.row, c.col): CellValue(CellKind(c.new_kind), c.new_digit) for c in rows}


def correction_history(session: Session, puzzle_id: int) -> list[Correction]:
    """Every correction of the puzzle, oldest first."""
    rows = session.execute(
        select(CellCorrection, ApiKey.name)
        .outerjoin(ApiKey, ApiKey.id == CellCorrection.api_key_id)
        .where(CellCorrection.puzzle_id == puzzle_id)
        .order_by(CellCorrection.id)
    )
    return [
        Correction(
            c.row,
            c.col,
            CellValue(CellKind(c.old_kind), c.old_digit),
            CellValue(CellKind(c.new_kind), c.new_digit),
            name,
            c.corrected_at,
        )
        for c, name in rows
    ]


def _key_name(session: Session, api_key_id: int | None) -> str | None:
    if api_key_id is None:
        return None
    return session.scalar(select(ApiKey.name).where(ApiKey.id == api_key_id))
