import csv

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.reading import DigitReading
from sudoku_batch.pipeline.recognise.orientation import (
    ORIENTATION_SAMPLE,
    read_upright,
    settled_upright,
)
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.recognise.turns import turn_board
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.synth.grid_image import render_grid
from tests.ocr.boards import board_from_corners

GIVENS = (
    (5, 3, 0, 0, 7, 0, 0, 0, 0),
    (6, 0, 0, 1, 9, 5, 0, 0, 0),
    (0, 9, 8, 0, 0, 0, 0, 6, 0),
    (8, 0, 0, 0, 6, 0, 0, 0, 3),
    (4, 0, 0, 8, 0, 3, 0, 0, 1),
    (7, 0, 0, 0, 2, 0, 0, 0, 6),
    (0, 6, 0, 0, 0, 0, 2, 8, 0),
    (0, 0, 0, 4, 1, 9, 0, 0, 5),
    (0, 0, 0, 0, 8, 0, 0, 7, 9),
)


@pytest.fixture(scope="module")
def upright_board():
    grid = render_grid(Puzzle(GridShape(3, 3), GIVENS), cell_px=48, rng=np.random.default_rng(1))
    return board_from_corners(grid.image, grid.corners, GridShape(3, 3))


def recognise(board, engine):
    """As the steps do: cells sorted by the rectify step, then read."""
    return recognise_board(board, classify_cells(board), engine)


def read_grid(recognised):
    return tuple(
        tuple(cell.digit or 0 for cell in recognised.reading.cells[r * 9 : r * 9 + 9])
        for r in range(9)
    )


@pytest.mark.parametrize("turned_by", [0, 1, 2, 3])
def test_a_turned_board_is_read_upright(engine, upright_board, turned_by):
    recognised = recognise(turn_board(upright_board, turned_by), engine)
    assert recognised.quarter_turns == (4 - turned_by) % 4
    assert read_grid(recognised) == GIVENS
    np.testing.assert_array_equal(recognised.board.pixels, upright_board.pixels)
    np.testing.assert_allclose(recognised.board.homography, upright_board.homography, atol=1e-9)
    cells = recognised.reading.cells
    assert [(c.row, c.col) for c in cells] == [(r, c) for r in range(9) for c in range(9)]
    assert all((c.digit is None) == (c.kind is not CellKind.GIVEN) for c in cells)


def test_no_givens_read_as_upright_and_empty(engine):
    assert read_upright([], engine, {"1": 1}) == (0, [])


class CountingEngine:
    """Passes reads on to an engine, counting them."""

    def __init__(self, engine):
        self.engine, self.name, self.calls = engine, engine.name, 0

    def read_digits(self, crops, symbols):
        self.calls += 1
        return self.engine.read_digits(crops, symbols)


@pytest.mark.parametrize(("turned_by", "reads"), [(0, 1), (2, 3)])
def test_only_a_sure_first_read_settles_the_orientation(engine, upright_board, turned_by, reads):
    # Upside down, 17 of these 30 givens are 1, 6, 8 or 9, which still read as digits: the
    # sample must still be read the other way, then the whole board.
    counting = CountingEngine(engine)
    recognised = recognise(turn_board(upright_board, turned_by), counting)
    assert recognised.quarter_turns == turned_by
    assert counting.calls == reads


def test_fewer_givens_than_the_sample_are_never_settled_by_the_first_read():
    sure = DigitReading(1, 1.0)
    assert not settled_upright([sure] * (ORIENTATION_SAMPLE - 1))
    assert settled_upright([sure] * ORIENTATION_SAMPLE)


# Three real phone photos: a blurry 640x480 one, and two 960x1280 ones whose EXIF flag lies.
REAL = ("images/image1.jpg", "images/image1031.jpg", "images/image1083.jpg")


@pytest.mark.shared_data
@pytest.mark.parametrize("name", REAL)
def test_real_photos_read_right_either_way_up(engine, shared_data, name):
    root = shared_data / "wichtounet-v2-train"
    with open(root / "manifest.csv", newline="") as handle:
        row = next(r for r in csv.DictReader(handle) if r["image"] == name)
    pixels = cv2.imread(str(root / name), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    corners = np.array(row["corners_TL_TR_BR_BL"].split(), np.float32).reshape(4, 2)
    board = board_from_corners(pixels, corners, GridShape(3, 3))
    truth = [int(ch) for ch in row["givens"]]
    for turned_by in range(4):
        recognised = recognise(turn_board(board, turned_by), engine)
        assert recognised.quarter_turns == (4 - turned_by) % 4
        read = [
            (cell.digit, truth[i])
            for i, cell in enumerate(recognised.reading.cells)
            if cell.kind is CellKind.GIVEN and truth[i]
        ]
        assert len(read) >= 0.9 * sum(1 for v in truth if v)
        assert all(digit == want for digit, want in read)
