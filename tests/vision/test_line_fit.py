"""Boards whose outline is off or whose page is curled: the corners are refitted to the
crossings of all the printed lines, and the lattice follows them."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sudoku_batch.pipeline.board import BoardLocation
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.gridlines import fit_to_lines
from sudoku_batch.pipeline.vision.rectify import rectify_board, survey_board
from sudoku_batch.pipeline.vision.straighten import straightened
from tests.vision.scenes import corner_error, photo_of, rendered


@pytest.mark.parametrize("rows_off", [0.5, 1.0])
def test_a_corner_placed_rows_off_is_moved_back_onto_the_print(rows_off: float) -> None:
    rng = np.random.default_rng(3)
    grid = rendered(GridShape(3, 3), rng)
    photo = photo_of(grid, rng)
    truth = photo.corners
    off = truth.copy()
    # The bottom-right corner placed up the right side, as text or a shadow under the grid's
    # corner would place it.
    off[2] = truth[2] + (truth[1] - truth[2]) * rows_off / 9
    board = survey_board(photo.image, BoardLocation(off))
    assert corner_error(board.location.corners, truth) > 0.05

    corners = fit_to_lines(photo.image, board)

    assert corners is not None
    assert corner_error(corners, truth) < 0.01


def test_fit_on_a_region_without_enough_lines_gives_none() -> None:
    rng = np.random.default_rng(4)
    grid = rendered(GridShape(3, 3), rng)
    board = survey_board(grid.image, BoardLocation(grid.corners))
    # The same board read from a blank page: nothing to trace.
    blank = np.full_like(grid.image, 240)
    assert fit_to_lines(blank, board) is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_curled_page_is_found_and_its_lattice_follows_the_printed_lines(seed: int) -> None:
    rng = np.random.default_rng(seed)
    grid = rendered(GridShape(3, 3), rng)
    photo = photo_of(grid, rng, max_curl=0.04, max_tilt=0.12)

    locations = find_boards(photo.image)

    assert len(locations) == 1
    assert corner_error(locations[0].corners, photo.corners) < 0.01
    board = rectify_board(photo.image, locations[0])
    gray = board.pixels.min(axis=2).astype(np.float64)
    cell = gray.shape[0] / 9
    # Every found line runs along its printed line, the bowed page straightened: all the way
    # across the board, the board is darker along it than a third of a cell to either side.
    for lines, along in ((board.lattice.row_lines, gray), (board.lattice.col_lines, gray.T)):
        for pos in lines[1:-1]:
            for part in np.array_split(np.arange(int(cell / 2), gray.shape[0] - int(cell / 2)), 4):
                on = np.median(along[int(round(pos)), part])
                beside = [np.median(along[int(round(pos + d * cell / 3)), part]) for d in (-1, 1)]
                assert on < min(beside) - 10
    assert [c.kind for c in classify_cells(board)] == [k for row in grid.kinds for k in row]


def test_givens_fading_across_the_board_are_still_givens() -> None:
    rng = np.random.default_rng(8)
    grid = rendered(GridShape(3, 3), rng)
    # The print fades from full contrast at the left to a quarter of it at the right, as a
    # worn print or light falling across the page fades it (wichtounet image71).
    width = grid.image.shape[1]
    keep = np.linspace(1.0, 0.25, width, dtype=np.float32)[None, :, None]
    faded = (255 - (255 - grid.image.astype(np.float32)) * keep).astype(np.uint8)
    photo = photo_of(replace(grid, image=faded), rng, max_tilt=0.05, max_light_falloff=0.0)

    board = rectify_board(photo.image, find_boards(photo.image)[0])

    assert [c.kind for c in classify_cells(board)] == [k for row in grid.kinds for k in row]


def test_a_flat_board_is_not_warped_again() -> None:
    rng = np.random.default_rng(6)
    grid = rendered(GridShape(3, 3), rng)
    board = survey_board(grid.image, BoardLocation(grid.corners))
    assert straightened(grid.image, board) is board
