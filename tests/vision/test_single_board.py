"""One board per photo: found, rectified and its cells sorted, across sizes and box shapes."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.board import BoardLocation, CellKind
from sudoku_batch.pipeline.errors import LatticeNotFound
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.rectify import rectify_board
from tests.vision.scenes import corner_error, photo_of, rendered

SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (3, 4), (4, 3), (4, 4)]


@pytest.mark.parametrize(("box_rows", "box_cols"), SHAPES)
def test_photo_of_each_shape_is_found_measured_and_read(box_rows: int, box_cols: int) -> None:
    rng = np.random.default_rng(box_rows * 10 + box_cols)
    shape = GridShape(box_rows, box_cols)
    grid = rendered(shape, rng, cell_px=40 if shape.size >= 12 else 48)
    photo = photo_of(grid, rng)

    locations = find_boards(photo.image)

    assert len(locations) == 1
    assert corner_error(locations[0].corners, photo.corners) < 0.03
    board = rectify_board(photo.image, locations[0])
    assert board.shape == shape
    assert board.homography.shape == (3, 3) and board.homography.dtype == np.float64
    cells = classify_cells(board)
    assert [(c.row, c.col) for c in cells] == [
        (r, c) for r in range(shape.size) for c in range(shape.size)
    ]
    assert [c.kind for c in cells] == [k for row in grid.kinds for k in row]


def test_lattice_lines_follow_the_print_and_bound_cells_tightly() -> None:
    rng = np.random.default_rng(7)
    grid = rendered(GridShape(3, 3), rng)
    photo = photo_of(grid, rng, max_tilt=0.12)
    board = rectify_board(photo.image, find_boards(photo.image)[0])
    lattice = board.lattice
    side = board.pixels.shape[0]
    assert len(lattice.row_lines) == len(lattice.col_lines) == 10
    assert 40 * 9 <= side <= 64 * 9
    # Every line of the warped grid is a dark band: sample along each found line.
    gray = board.pixels.min(axis=2)
    for pos in lattice.row_lines[1:-1]:
        assert np.median(gray[int(round(pos)), 10:-10]) < 128
    for pos in lattice.col_lines[1:-1]:
        assert np.median(gray[10:-10, int(round(pos))]) < 128


def test_cell_kinds_are_right_in_red_ink_on_shaded_cells() -> None:
    rng = np.random.default_rng(3)
    grid = rendered(GridShape(3, 3), rng, shaded=12)
    photo = photo_of(grid, rng, red_ink=True)
    board = rectify_board(photo.image, find_boards(photo.image)[0])
    assert [c.kind for c in classify_cells(board)] == [k for row in grid.kinds for k in row]


def test_two_digit_numbers_are_givens() -> None:
    rng = np.random.default_rng(11)
    grid = rendered(GridShape(4, 4), rng, cell_px=44, fill=0.5)
    board = rectify_board(grid.image, find_boards(grid.image)[0])
    assert [c.kind for c in classify_cells(board)] == [k for row in grid.kinds for k in row]


def test_blocked_cells_are_told_from_shaded_ones() -> None:
    rng = np.random.default_rng(5)
    grid = rendered(GridShape(3, 3), rng, blocked=4, shaded=15)
    photo = photo_of(grid, rng)
    board = rectify_board(photo.image, find_boards(photo.image)[0])
    kinds = [c.kind for c in classify_cells(board)]
    assert kinds == [k for row in grid.kinds for k in row]
    assert kinds.count(CellKind.BLOCKED) == 4


def test_blank_page_has_no_board() -> None:
    page = np.full((600, 800, 3), 235, np.uint8)
    assert find_boards(page) == []


def test_a_25x25_printed_large_enough_is_measured() -> None:
    rng = np.random.default_rng(25)
    shape = GridShape(5, 5)
    grid = rendered(shape, rng, cell_px=30)
    locations = find_boards(grid.image)
    assert len(locations) == 1
    board = rectify_board(grid.image, locations[0])
    assert board.shape == shape
    assert [c.kind for c in classify_cells(board)] == [k for row in grid.kinds for k in row]


def test_rectifying_a_region_without_a_grid_says_so() -> None:
    page = np.full((400, 400, 3), 240, np.uint8)
    corners = np.array([[50, 50], [350, 50], [350, 350], [50, 350]], np.float32)
    with pytest.raises(LatticeNotFound, match="no evenly spaced grid lines"):
        rectify_board(page, BoardLocation(corners))
