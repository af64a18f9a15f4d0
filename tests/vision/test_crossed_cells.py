"""Lines crossing a lattice's cells (``cell_parts``): a table or calendar taken for a square
grid has its lines cut its cells one way at least, a Sudoku's cells are whole."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.board import Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.lattice import cell_parts

SIDE = 420


def board(rows: int, cols: int) -> np.ndarray:
    """A white square with ``rows`` x ``cols`` cells ruled across it."""
    pixels = np.full((SIDE, SIDE), 255, np.uint8)
    for r in range(rows + 1):
        y = min(SIDE - 2, round(r * SIDE / rows))
        cv2.line(pixels, (0, y), (SIDE - 1, y), 0, 2)
    for c in range(cols + 1):
        x = min(SIDE - 2, round(c * SIDE / cols))
        cv2.line(pixels, (x, 0), (x, SIDE - 1), 0, 2)
    return pixels


def square_lattice(size: int) -> Lattice:
    lines = tuple(k * SIDE / size for k in range(size + 1))
    return Lattice(GridShape.square(size), lines, lines)


def test_the_cells_of_a_square_grid_are_whole() -> None:
    assert cell_parts(board(4, 4), square_lattice(4)) == 1
    assert cell_parts(board(9, 9), square_lattice(9)) == 1


@pytest.mark.parametrize(("rows", "cols"), [(4, 7), (7, 4), (6, 7)])
def test_a_table_taken_for_a_square_grid_has_its_cells_cut(rows: int, cols: int) -> None:
    # A month's calendar (7 columns) read as a 4x4: its columns cut the cells even where its
    # rows fit the lattice.
    assert cell_parts(board(rows, cols), square_lattice(4)) > 1


def test_every_line_of_a_36x36_cuts_a_12x12s_cells_in_three() -> None:
    assert cell_parts(board(36, 36), square_lattice(12)) == 3
