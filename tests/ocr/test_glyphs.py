"""Digits that do not fit their cells are read where they are printed."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.recognise.glyphs import glyph_crop
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.styles import PrintStyle, random_puzzles, styled_page
from tests.ocr.boards import board_from_corners
from tests.ocr.test_recognise import GIVENS, read_grid


def _board(**style):
    grid = render_grid(
        Puzzle(GridShape(3, 3), GIVENS), cell_px=48, rng=np.random.default_rng(2), **style
    )
    return board_from_corners(grid.image, grid.corners, GridShape(3, 3))


def test_digits_larger_than_their_cells_are_read_whole(engine):
    # Bold and 1.8 times the usual size (a large-print book), the digits run over their
    # cells' lines: read from the interior alone, 16 of 30 givens were empty or misread.
    board = _board(thick_px=3, digit_scale=1.8, font="DejaVuSans-Bold.ttf")
    recognised = recognise_board(board, classify_cells(board), engine)
    assert read_grid(recognised) == GIVENS


def test_a_digit_that_fits_is_read_from_its_interior():
    board = _board()
    gray = board.pixels.min(axis=2)
    lattice = board.lattice
    crop = glyph_crop(gray, lattice, 0, 0, 0.1).crop
    cell = lattice.row_lines[1] - lattice.row_lines[0]
    assert crop.shape[0] < cell and crop.shape[1] < cell


def test_a_spilling_digit_is_cropped_with_all_of_its_ink():
    board = _board(thick_px=3, digit_scale=1.6)
    gray = board.pixels.min(axis=2)
    lattice = board.lattice
    cell = lattice.row_lines[1] - lattice.row_lines[0]
    crop = glyph_crop(gray, lattice, 0, 0, 0.1).crop  # a 5, taller than its cell
    assert crop.shape[0] > 0.9 * cell


@pytest.mark.parametrize(
    ("align", "scale"), [("left", 0.45), ("top-left", 0.6), ("top-right", 0.6)]
)
def test_digits_off_the_centre_are_read_whole(engine, align, scale):
    # Set against a line or in a corner, a small digit runs into the interior's edge off the
    # centre, and the interior alone cut it: 1 to 3 of 64 givens read wrong.
    rng = np.random.default_rng(7)
    style = PrintStyle(align=align, digit_scale=scale)
    page = styled_page(random_puzzles(GridShape(3, 3), 2, rng), style, dpi=150, columns=2, rng=rng)
    for found, truth in zip(rectify_page(page.image), page.grids, strict=True):
        recognised = recognise_board(found.board, found.cells, engine)
        assert [c.digit or 0 for c in recognised.reading.cells] == [
            v for row in truth.generated.puzzle.givens for v in row
        ]
