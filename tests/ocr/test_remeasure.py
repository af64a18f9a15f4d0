"""A board whose readings contradict its measured size or box shape is measured again."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sudoku_batch.pipeline.board import CellKind, Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import BoardReading, CellReading
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.recognise.remeasure import contradicts
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.styles import NO_BOX_LINES, random_puzzles, styled_page
from tests.ocr.boards import board_from_corners


def _values(puzzle) -> list[int]:
    return [v or 0 for row in puzzle.givens for v in row]


@pytest.mark.parametrize("shape", [GridShape(3, 2), GridShape(4, 3), GridShape(4, 2)])
def test_boxes_of_the_unusual_shape_without_box_lines_are_taken_from_the_readings(engine, shape):
    # Without thicker box lines the lattice takes the size's usual box shape (2x3, 3x4, 2x4):
    # these grids' givens repeat digits in its boxes.
    rng = np.random.default_rng(3)
    page = styled_page(
        random_puzzles(shape, 1, rng, 0.5), NO_BOX_LINES, dpi=150, columns=1, rng=rng
    )
    (found,) = rectify_page(page.image)
    assert found.board.shape != shape
    recognised = recognise_board(found.board, found.cells, engine)
    assert recognised.reading.shape == shape
    assert [c.digit or 0 for c in recognised.reading.cells] == _values(
        page.grids[0].generated.puzzle
    )


@pytest.mark.parametrize(
    ("true", "measured"), [(GridShape(4, 4), GridShape(2, 2)), (GridShape(3, 3), GridShape(2, 2))]
)
def test_a_board_measured_at_another_size_is_read_at_its_own(engine, true, measured):
    rng = np.random.default_rng(1)
    (generated,) = random_puzzles(true, 1, rng, 0.5)
    grid = render_grid(generated.puzzle, cell_px=40, rng=rng)
    board = board_from_corners(grid.image, grid.corners, true, cell_px=40)
    side = board.pixels.shape[0]
    lines = tuple(side * i / measured.size for i in range(measured.size + 1))
    mismeasured = replace(board, lattice=Lattice(measured, lines, lines))
    recognised = recognise_board(mismeasured, classify_cells(mismeasured), engine)
    assert recognised.reading.shape == true
    assert [c.digit or 0 for c in recognised.reading.cells] == _values(generated.puzzle)


def _reading(digits: dict[tuple[int, int], int]) -> BoardReading:
    cells = tuple(
        CellReading(r, c, CellKind.GIVEN, digits[r, c], 1.0)
        if (r, c) in digits
        else CellReading(r, c, CellKind.EMPTY)
        for r in range(9)
        for c in range(9)
    )
    return BoardReading(GridShape(3, 3), cells)


def test_one_misread_cell_is_no_contradiction():
    # r0c0 misread as 5 repeats the 5s of its row, column and box: the solve step doubts it.
    assert not contradicts(_reading({(0, 0): 5, (0, 5): 5, (4, 0): 5, (1, 1): 5}))


def test_repeats_in_several_places_are_a_contradiction():
    assert contradicts(_reading({(0, 0): 5, (0, 5): 5, (4, 4): 7, (4, 8): 7}))
