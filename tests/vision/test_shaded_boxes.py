"""Boards whose alternate boxes are shaded, printed flat: straightening does not bend them (the
edge of a shaded box is a step from paper to grey, not a line to trace), so their digits keep
their height, and their lattice lies on the printed lines, not inside the shaded boxes."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.board import BoardImage
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.pipeline.vision.warp import warp
from sudoku_batch.synth.degrade import scan
from sudoku_batch.synth.styles import PrintStyle, random_puzzles, styled_page
from sudoku_batch.synth.truth import PlacedGrid

# Every line a grey hairline: the boxes are told by their shading alone.
HAIRLINES = PrintStyle(thin_pt=0.3, thick_pt=0.3, line_grey=110, shaded_boxes=True)
# Grey hairline cells, black box lines.
BOXED = PrintStyle(thin_pt=0.3, thick_pt=1.0, line_grey=60, shaded_boxes=True)
# A board bent by a shaded box's edges stretched its digits by a fifth.
HEIGHT_TOLERANCE = 0.05
# Lines off their printed place by more than this share of a cell cut the cells elsewhere.
LINE_TOLERANCE = 0.05
# Digits are black, the shading and the hairlines lighter than this.
DIGIT_GREY = 100
# A cell's digit is measured this share of a cell inside its lines.
INSET = 0.12


@pytest.mark.parametrize("scanned", [False, True], ids=["150dpi", "scan"])
@pytest.mark.parametrize("shade", [180, 200])
@pytest.mark.parametrize("style", [HAIRLINES, BOXED], ids=["hairlines", "boxed"])
def test_shaded_boxes_keep_their_digits_and_lines(
    style: PrintStyle, shade: int, scanned: bool
) -> None:
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
        # The page warped through the board's homography alone, on an even lattice: the
        # board as printed, without any straightening.
        plain = warp(pixels, board.homography, (side, side))
        even = tuple(np.arange(10) * side / 9)
        assert np.allclose(
            _digit_heights(board.pixels, board, truth),
            _digit_heights(
                plain,
                replace(board, lattice=replace(board.lattice, row_lines=even, col_lines=even)),
                truth,
            ),
            rtol=HEIGHT_TOLERANCE,
        )
        if not scanned:  # a scan turns the page: its truth corners no longer hold
            _assert_on_printed_lines(board, truth)


def _digit_heights(pixels: np.ndarray, board: BoardImage, truth: PlacedGrid) -> np.ndarray:
    """Each given's ink height in its cell as the lattice cuts it, as a share of the cell."""
    grey = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    rows, cols = board.lattice.row_lines, board.lattice.col_lines
    heights = []
    for r, row in enumerate(truth.generated.puzzle.givens):
        for c, value in enumerate(row):
            if not value:
                continue
            top, bottom, left, right = rows[r], rows[r + 1], cols[c], cols[c + 1]
            inset_y, inset_x = INSET * (bottom - top), INSET * (right - left)
            cell = grey[
                int(round(top + inset_y)) : int(round(bottom - inset_y)),
                int(round(left + inset_x)) : int(round(right - inset_x)),
            ]
            inked = np.flatnonzero((cell < DIGIT_GREY).any(axis=1))
            heights.append((inked[-1] - inked[0] + 1) / (bottom - top) if inked.size else 0.0)
    return np.array(heights)


def _assert_on_printed_lines(board: BoardImage, truth: PlacedGrid) -> None:
    side = board.pixels.shape[0]
    printed = cv2.perspectiveTransform(
        _crossings(truth.corners).reshape(-1, 1, 2), board.homography
    ).reshape(10, 10, 2)
    cell = side / 9
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
