import numpy as np
import pytest

from sudoku_batch.pipeline.board import BoardImage, BoardLocation, Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.turns import turn_board, turn_cell


def cell_board(shape: GridShape, cell_px: int = 10) -> BoardImage:
    """A board whose cell (r, c) is filled with the value r * N + c, from a page 2x larger."""
    n = shape.size
    cells = np.arange(n * n, dtype=np.uint8).reshape(n, n)
    pixels = np.repeat(np.repeat(cells, cell_px, axis=0), cell_px, axis=1)
    half = np.diag([0.5, 0.5, 1.0])  # page -> board: the page is twice the board's size
    lines = tuple(float(i * cell_px) for i in range(n + 1))
    corners = np.array([[0, 0], [2, 0], [2, 2], [0, 2]], np.float32) * n * cell_px
    return BoardImage(BoardLocation(corners), pixels, half, Lattice(shape, lines, lines))


def centre(board: BoardImage, row: int, col: int) -> tuple[int, int]:
    rows, cols = board.lattice.row_lines, board.lattice.col_lines
    return int((cols[col] + cols[col + 1]) / 2), int((rows[row] + rows[row + 1]) / 2)


@pytest.mark.parametrize("turns", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("shape", [GridShape(3, 3), GridShape(2, 3)])
def test_cells_follow_the_turn(shape, turns):
    board = cell_board(shape)
    turned = turn_board(board, turns)
    n = shape.size
    for row in range(n):
        for col in range(n):
            new_row, new_col = turn_cell(row, col, n, turns)
            x, y = centre(turned, new_row, new_col)
            assert turned.pixels[y, x] == row * n + col


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_the_homography_still_maps_the_page_onto_the_turned_board(turns):
    board = cell_board(GridShape(3, 3))
    turned = turn_board(board, turns)
    rng = np.random.default_rng(turns)
    for x, y in rng.uniform(0, 2 * board.pixels.shape[1] - 2, (20, 2)):
        before = board.homography @ (x, y, 1.0)
        after = turned.homography @ (x, y, 1.0)
        bx, by = np.round(before[:2] / before[2]).astype(int)
        ax, ay = np.round(after[:2] / after[2]).astype(int)
        assert turned.pixels[ay, ax] == board.pixels[by, bx]


def test_box_shape_and_corners_turn_with_the_board():
    board = cell_board(GridShape(2, 3))
    turned = turn_board(board, 1)
    assert (turned.shape.box_rows, turned.shape.box_cols) == (3, 2)
    # Seen on the board turned a quarter counter-clockwise, the old top-right is the top-left.
    np.testing.assert_array_equal(turned.location.corners[0], board.location.corners[1])
    back = turn_board(turned, 3)
    np.testing.assert_array_equal(back.pixels, board.pixels)
    np.testing.assert_allclose(back.homography, board.homography)
    assert back.lattice == board.lattice
