"""Boards whose alternate boxes are shaded, printed flat: straightening leaves them as they are
(the edge of a shaded box is a step from paper to grey, not a line to trace), so their digits
keep their height, and their lattice lies on the printed lines, not inside the shaded boxes."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.pipeline.vision.warp import warp
from sudoku_batch.synth.degrade import scan
from sudoku_batch.synth.styles import PrintStyle, random_puzzles, styled_page

# Every line a grey hairline: the boxes are told by their shading alone.
HAIRLINES = PrintStyle(thin_pt=0.3, thick_pt=0.3, line_grey=110, shaded_boxes=True)
# Grey hairline cells, black box lines.
BOXED = PrintStyle(thin_pt=0.3, thick_pt=1.0, line_grey=60, shaded_boxes=True)
# Lines off their printed place by more than this share of a cell cut the cells elsewhere.
LINE_TOLERANCE = 0.05


@pytest.mark.parametrize("scanned", [False, True], ids=["150dpi", "scan"])
@pytest.mark.parametrize("shade", [180, 200, 230])
@pytest.mark.parametrize("style", [HAIRLINES, BOXED], ids=["hairlines", "boxed"])
def test_shaded_boxes_are_not_straightened(style: PrintStyle, shade: int, scanned: bool) -> None:
    rng = np.random.default_rng(shade)
    puzzles = random_puzzles(GridShape(3, 3), 2, rng)
    dpi = 200 if scanned else 150
    page = styled_page(puzzles, replace(style, shade_grey=shade), dpi=dpi, columns=2, rng=rng)
    pixels = scan(page.image, rng) if scanned else page.image
    boards = rectify_page(pixels)
    assert len(boards) == len(page.grids)
    for found, truth in zip(boards, page.grids, strict=True):
        board = found.board
        side = board.pixels.shape[0]
        # Straightened, the board would differ from the page warped through its homography:
        # the shaded boxes' edges and the digits moved (stretched by a fifth on these pages).
        plain = warp(pixels, board.homography, (side, side))
        assert np.array_equal(board.pixels, plain)
        if not scanned:  # a scan turns the page: its truth corners no longer hold
            cell = side / 9
            printed = cv2.perspectiveTransform(
                _crossings(truth.corners).reshape(-1, 1, 2), board.homography
            ).reshape(10, 10, 2)
            rows = printed[:, :, 1].mean(axis=1)
            cols = printed[:, :, 0].mean(axis=0)
            assert np.abs(np.array(board.lattice.row_lines) - rows).max() < LINE_TOLERANCE * cell
            assert np.abs(np.array(board.lattice.col_lines) - cols).max() < LINE_TOLERANCE * cell


def _crossings(corners: np.ndarray) -> np.ndarray:
    """The crossings of a flat 9x9 grid's lines on the page, (10, 10, 2), from its corners TL,
    TR, BR, BL (an axis-aligned square on a synthetic page)."""
    top_left, _, bottom_right, _ = corners.astype(np.float64)
    steps = np.linspace(0.0, 1.0, 10)
    xs = top_left[0] + steps * (bottom_right[0] - top_left[0])
    ys = top_left[1] + steps * (bottom_right[1] - top_left[1])
    return np.stack(np.meshgrid(xs, ys), axis=-1).astype(np.float32)
