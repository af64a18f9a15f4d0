"""Grid lines printed a few pixels off their places (synth.phantom_styles ``misregistered``):
the digits keep their size, so warping the lines onto an even grid would stretch and squeeze
them and the ink's sorting would take them for handwriting. Such boards are left unwarped and
their glyphs measured in the board's mean cell; a curled page, whose digits bend with its
lines, is still straightened."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.board import BoardLocation
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.ink_marks import print_off_lines
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.rectify import rectify_board
from sudoku_batch.synth.phantom_styles import misregistered
from tests.ocr.boards import givens_read_and_true
from tests.vision.scenes import photo_of, rendered

SEEDS = range(1, 9)


@pytest.mark.parametrize("seed", SEEDS)
def test_no_given_is_lost_on_misregistered_lines(engine, seed: int) -> None:
    read, truth = givens_read_and_true(misregistered(np.random.default_rng(seed)), engine)

    assert read == truth


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_misregistered_lines_are_not_warped_onto_an_even_grid(seed: int) -> None:
    photo = misregistered(np.random.default_rng(seed))
    (corners,) = photo.corners

    board = rectify_board(photo.image, BoardLocation(corners))

    # Left unwarped, its lattice on its lines, unevenly, and its print off them.
    assert np.ptp(np.diff(board.lattice.row_lines)) > 0.1 * board.pixels.shape[0] / 9
    assert print_off_lines(cv2.cvtColor(board.pixels, cv2.COLOR_BGR2GRAY), board.lattice)


# Seeds whose curl moves a line more than straightening's least bend (STRAIGHT_ENOUGH).
@pytest.mark.parametrize("seed", [1, 2, 4])
def test_a_curled_page_is_still_straightened(seed: int) -> None:
    # Its digits bend with its lines: it is warped onto an even lattice.
    rng = np.random.default_rng(seed)
    curled = photo_of(rendered(GridShape(3, 3), rng), rng, max_curl=0.04, max_tilt=0.12)

    board = rectify_board(curled.image, find_boards(curled.image)[0])

    assert np.ptp(np.diff(board.lattice.row_lines)) < 1e-6
