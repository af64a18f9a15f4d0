"""Render: solved digits land in the empty cells, in the page's perspective, and nowhere else."""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, BoardLocation, Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.render import (
    SOLUTION_INK,
    _draw_centred,
    board_region,
    region_window,
    render_solution,
)

BOARD_PX = 360


def _skewed_board(page_shape: tuple[int, int]) -> BoardImage:
    corners = np.array([[120, 80], [520, 110], [500, 520], [90, 480]], np.float32)
    square = np.array([[0, 0], [BOARD_PX, 0], [BOARD_PX, BOARD_PX], [0, BOARD_PX]], np.float32)
    homography = cv2.getPerspectiveTransform(corners, square).astype(np.float64)
    lines = tuple(float(v) for v in np.linspace(0, BOARD_PX, 10))
    lattice = Lattice(GridShape(3, 3), lines, lines)
    pixels = np.full((BOARD_PX, BOARD_PX, 3), 255, np.uint8)
    return BoardImage(BoardLocation(corners), pixels, homography, lattice)


def _inked_share_per_cell(rendered: np.ndarray, board: BoardImage, offset: np.ndarray):
    """Share of solution-coloured pixels in each cell, found by warping the crop upright."""
    shift = np.array([[1, 0, offset[0]], [0, 1, offset[1]], [0, 0, 1]], np.float64)
    upright = cv2.warpPerspective(rendered, board.homography @ shift, (BOARD_PX, BOARD_PX))
    distance = np.abs(upright.astype(int) - np.array(SOLUTION_INK)).sum(axis=2)
    solution_coloured = distance < 120
    step = BOARD_PX // 9
    return np.array(
        [
            [
                solution_coloured[r * step : (r + 1) * step, c * step : (c + 1) * step].mean()
                for c in range(9)
            ]
            for r in range(9)
        ]
    )


def test_digits_are_drawn_in_empty_cells_only_through_the_inverse_warp() -> None:
    page = np.full((600, 640, 3), 255, np.uint8)
    board = _skewed_board(page.shape[:2])
    solution = tuple(tuple((r * 3 + r // 3 + c) % 9 + 1 for c in range(9)) for r in range(9))
    givens = tuple(
        tuple(v if (r + c) % 2 == 0 else 0 for c, v in enumerate(row))
        for r, row in enumerate(solution)
    )

    rendered = render_solution(board_region(page, board), board, givens, solution)

    offset = np.floor(
        board.location.corners.min(axis=0) - 0.04 * np.ptp(board.location.corners, axis=0).max()
    )
    share = _inked_share_per_cell(rendered, board, np.maximum(offset, 0))
    empty = np.array([[g == 0 for g in row] for row in givens])
    assert (share[empty] > 0.02).all(), "every filled-in cell shows a digit"
    assert (share[~empty] == 0).all(), "given cells are left as printed"


def test_render_is_a_crop_of_the_page_around_the_board() -> None:
    page = np.full((600, 640, 3), 255, np.uint8)
    board = _skewed_board(page.shape[:2])
    empty = tuple(tuple(0 for _ in range(9)) for _ in range(9))
    rendered = render_solution(board_region(page, board), board, empty, empty)
    assert rendered.shape[0] < page.shape[0] and rendered.shape[1] < page.shape[1]
    assert rendered.shape[0] > 440 - 80 and rendered.shape[1] > 430 - 90
    assert (rendered == 255).all(), "nothing is drawn when no cell was solved"


def test_drawing_over_the_crop_gives_the_pixels_of_drawing_over_the_whole_page() -> None:
    rng = np.random.default_rng(3)
    page = rng.integers(0, 256, (600, 640, 3), dtype=np.uint8)
    board = _skewed_board(page.shape[:2])
    solution = tuple(tuple((r * 3 + r // 3 + c) % 9 + 1 for c in range(9)) for r in range(9))
    givens = tuple(tuple(0 for _ in row) for row in solution)
    rendered = render_solution(board_region(page, board), board, givens, solution)

    # The reference, as rendering was first written: the ink layer warped onto the whole
    # page, blended there, then cropped.
    whole = cv2.warpPerspective(
        _ink_layer(board, givens, solution), np.linalg.inv(board.homography), (640, 600)
    )
    assert whole.any(), "nothing was drawn: the comparison would prove nothing"
    alpha = (whole.astype(np.float32) / 255.0)[:, :, None]
    blended = (page * (1 - alpha) + np.array(SOLUTION_INK, np.float32) * alpha).astype(np.uint8)
    x0, y0, x1, y1 = region_window(page.shape, board.location.corners)
    assert np.abs(rendered.astype(int) - blended[y0:y1, x0:x1].astype(int)).max() <= 1


def _ink_layer(board: BoardImage, givens, solution) -> np.ndarray:
    ink = np.zeros((BOARD_PX, BOARD_PX), np.uint8)
    lines = board.lattice.row_lines
    for r in range(9):
        for c in range(9):
            if givens[r][c] == 0:
                top, bottom, left, right = lines[r], lines[r + 1], lines[c], lines[c + 1]
                _draw_centred(ink, str(solution[r][c]), top, bottom, left, right)
    return ink
