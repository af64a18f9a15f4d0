"""What recognition makes of a board's cells."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from sudoku_batch.pipeline.board import BoardImage, CellKind
from sudoku_batch.pipeline.grid import Grid, GridShape, Puzzle


@dataclass(frozen=True)
class DigitReading:
    """An OCR engine's reading of one crop: the best digit, its probability, and runner-ups.

    ``alternatives`` lists the next-best (digit, probability) pairs, best first, excluding
    ``digit`` itself. ``symbol`` is how the digit was printed ("10" or "A" for 10), when the
    engine tells.
    """

    digit: int
    confidence: float
    alternatives: tuple[tuple[int, float], ...] = ()
    symbol: str | None = None


class InkKind(StrEnum):
    """What ink a playable cell holds (``pipeline.recognise.ink_kinds``)."""

    EMPTY = "empty"  # none
    GIVEN = "given"  # a printed digit: part of the puzzle
    PENCIL = "pencil"  # small candidate digits a solver pencilled in
    HANDWRITTEN = "handwritten"  # a digit a solver wrote in


@dataclass(frozen=True)
class CellReading:
    """The final reading of one cell, as stored per cell.

    ``ink`` is what the cell holds as read (None: not judged, a blocked cell or a text
    puzzle's). A cell holding a solver's marks is no given: its ``kind`` is EMPTY, a
    handwritten entry keeps its ``digit`` (with its confidence and runner-ups), pencil marks
    their ``candidates``."""

    row: int
    col: int
    kind: CellKind
    digit: int | None = None
    confidence: float | None = None
    alternatives: tuple[tuple[int, float], ...] = ()
    ink: InkKind | None = None
    candidates: tuple[int, ...] = ()


# How a book prints the digits above 9: as numbers (10, 11, ...) or as letters (A, B, ...).
NUMBERS, LETTERS = "numbers", "letters"


def printed_symbols(readings: Iterable[DigitReading]) -> str | None:
    """LETTERS when most digits above 9 were read as letters, NUMBERS when most were read as
    numbers, None when none was read (a board up to 9x9, or an engine that does not tell)."""
    spelled = [r.symbol for r in readings if r.digit > 9 and r.symbol is not None]
    if not spelled:
        return None
    letters = sum(symbol.isalpha() for symbol in spelled)
    return LETTERS if 2 * letters > len(spelled) else NUMBERS


def symbol_of(value: int, symbols: str | None) -> str:
    """A digit as the book prints it: above 9 a letter (A = 10) only when the book used letters."""
    if value > 9 and symbols == LETTERS:
        return chr(ord("A") + value - 10)
    return str(value)


@dataclass(frozen=True)
class BoardReading:
    """Every cell of one board, read; ``symbols`` is how it prints digits above 9, when known
    (``printed_symbols``); ``other_reason``: why the lattice is no Sudoku grid
    (``pipeline.recognise.grid_kind``), None when it is one. ``shape`` is the grid's geometry as
    recognised: its box shape, and the regions and diagonals recognition found
    (``GridShape.regions``, ``GridShape.diagonals``; classic by default), which the solve and
    the record (``variant``, ``regions``) follow (docs/variants.md); ``regions_certainty`` is
    how sure the regions read from the image are (``pipeline.vision.regions``), None when not
    read from one."""

    shape: GridShape
    cells: tuple[CellReading, ...]
    symbols: str | None = None
    other_reason: str | None = None
    regions_certainty: float | None = None

    def givens(self) -> Grid:
        n = self.shape.size
        rows: list[list[int | None]] = [[0] * n for _ in range(n)]
        for cell in self.cells:
            if cell.kind is CellKind.BLOCKED:
                rows[cell.row][cell.col] = None
            elif cell.kind is CellKind.GIVEN and cell.digit is not None:
                rows[cell.row][cell.col] = cell.digit
        return tuple(tuple(row) for row in rows)

    def puzzle(self) -> Puzzle:
        return Puzzle(self.shape, self.givens())

    def lowest_confidence(self) -> float | None:
        """The lowest confidence among the digits read (blanks have theirs per cell)."""
        values = [
            c.confidence
            for c in self.cells
            if c.kind is CellKind.GIVEN and c.confidence is not None
        ]
        return min(values) if values else None


@dataclass(frozen=True)
class RecognisedBoard:
    """A board after recognition: turned upright (from its content, not EXIF) and read.

    ``board`` is the upright board (its homography still maps page pixels to its pixels);
    ``quarter_turns`` is how many counter-clockwise quarter turns made it upright.
    """

    board: BoardImage
    reading: BoardReading
    quarter_turns: int = 0
