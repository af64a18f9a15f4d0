"""Faint ink joined to a printed given (the back page's print showing through the paper) does
not make it taller: its deep height is the board's print's and it stays a given, while pencil
marks, faint on their own, still read as pencil (pipeline.recognise.ink_marks, ink_kinds)."""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.board import Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import InkKind
from sudoku_batch.pipeline.recognise.ink_kinds import HEIGHT_SPREAD, MIN_HEIGHT_SPREADS, ink_kinds
from sudoku_batch.pipeline.recognise.ink_marks import measure_ink

CELL = 48
PAPER = 235


def _board(through: float) -> tuple[np.ndarray, Lattice]:
    """A board whose first row holds digits printed 0.55 of a cell tall; the back page's
    line, ``through`` as dark as the print, runs down the middle of cell (0, 4) across its
    digit."""
    size = 9 * CELL
    gray = np.full((size, size), PAPER, np.uint8)
    for k in range(10):
        cv2.line(gray, (k * CELL, 0), (k * CELL, size), 20, 2)
        cv2.line(gray, (0, k * CELL), (size, k * CELL), 20, 2)
    for col in range(9):
        origin = (col * CELL + 11, 38)
        cv2.putText(gray, "8", origin, cv2.FONT_HERSHEY_SIMPLEX, 1.2, 20, 3, cv2.LINE_AA)
    x = 4 * CELL + 24
    shown = np.full_like(gray, 255)
    cv2.line(shown, (x, 2), (x, CELL - 2), _grey(through), 2)
    # A pencil candidate on its own in a corner of cell (1, 0), hardly darker.
    cv2.putText(shown, "3", (6, CELL + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, _grey(0.45), 2)
    lines = tuple(float(k * CELL) for k in range(10))
    return np.minimum(gray, shown), Lattice(GridShape(3, 3), lines, lines)


def _grey(share: float) -> int:
    """Ink ``share`` as dark as the print on this paper."""
    return int(round(PAPER - share * (PAPER - 20)))


def test_show_through_joined_to_a_given_does_not_make_it_an_entry() -> None:
    gray, lattice = _board(through=0.35)
    positions = [(0, col) for col in range(9)] + [(1, 0)]
    inks = measure_ink(gray, lattice, positions, printed=positions[:9])
    kinds = ink_kinds(inks)
    assert [kinds[0, col] for col in range(9)] == [InkKind.GIVEN] * 9
    # Only a pixel or two of it is left either side of the digit's strokes.
    heights = [inks[0, col].main.height for col in range(9) if col != 4]
    assert inks[0, 4].main.deep <= HEIGHT_SPREAD**MIN_HEIGHT_SPREADS * max(heights)
    # The faint candidate alone is pencil.
    assert (1, 0) in inks and kinds[1, 0] is InkKind.PENCIL
