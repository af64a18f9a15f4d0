"""Re-fit a board's corners to its printed outer border.

A candidate outline is only roughly placed: text printed against the grid, a faint or cut-off
border, or a rounded corner pull its corners off by a few pixels up to a third of a cell. Once
the lattice is known, each side of the border can be found where it is printed: near the
lattice's outer line, strip by strip along the board, at the line's outer edge (the corners of
a board are the outer corners of its border).
"""

from __future__ import annotations

import cv2
import numpy as np

from pipeline.board import BoardImage
from pipeline.lattice import ink_mask, line_strokes
from pipeline.quad import intersect_lines

# The border is looked for within this share of a cell of the lattice's outer line.
SEARCH_FRACTION = 0.3
# A strip counts a row (column) as part of the border when this share of it is line ink.
STRIP_COVERAGE = 0.5
# Fewer strips than this with a border edge leave the side too uncertain to move.
MIN_STRIPS = 3


def fit_border(board: BoardImage) -> np.ndarray | None:
    """The board's corners TL, TR, BR, BL in page pixels, fitted to the outer edge of its
    printed border; None when a side of the border cannot be traced."""
    gray = cv2.cvtColor(board.pixels, cv2.COLOR_BGR2GRAY)
    ink = ink_mask(gray)
    across, down = line_strokes(ink, horizontal=True), line_strokes(ink, horizontal=False)
    rows, cols = board.lattice.row_lines, board.lattice.col_lines
    # Sides as (vx, vy, x0, y0) in board pixels: top, right, bottom, left.
    sides = [
        _side(across, rows[0], cols, outward=-1),
        _side(down.T, cols[-1], rows, outward=1),
        _side(across, rows[-1], cols, outward=1),
        _side(down.T, cols[0], rows, outward=-1),
    ]
    if any(side is None for side in sides):
        return None
    top, right, bottom, left = sides
    right, left = _transposed(right), _transposed(left)
    corners = np.array(
        [
            intersect_lines(left, top),
            intersect_lines(top, right),
            intersect_lines(right, bottom),
            intersect_lines(bottom, left),
        ],
        dtype=np.float64,
    )
    if not np.all(np.isfinite(corners)):
        return None
    to_page = np.linalg.inv(board.homography)
    page = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_page).reshape(4, 2)
    return page.astype(np.float32)


def _side(strokes: np.ndarray, line: float, across: tuple[float, ...], outward: int):
    """A horizontal border side (vx, vy, x0, y0) through the outer edge of the line near row
    ``line`` of ``strokes``, traced cell by cell along ``across``."""
    cell = (across[-1] - across[0]) / (len(across) - 1)
    reach = SEARCH_FRACTION * cell
    lo = max(0, int(round(line - reach)))
    hi = min(strokes.shape[0], int(round(line + reach)) + 1)
    points = []
    for start, end in zip(across[:-1], across[1:], strict=True):
        strip = strokes[lo:hi, int(round(start)) : int(round(end))]
        if strip.size == 0:
            continue
        inked = np.flatnonzero(strip.mean(axis=1) >= 255 * STRIP_COVERAGE)
        if inked.size == 0:
            continue
        edge = inked[0] if outward < 0 else inked[-1] + 1
        points.append(((start + end) / 2, lo + edge))
    if len(points) < MIN_STRIPS:
        return None
    return cv2.fitLine(np.array(points, np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)


def _transposed(line: np.ndarray) -> np.ndarray:
    """A line fitted in the transposed image, back in board coordinates."""
    vx, vy, x0, y0 = line
    return np.array([vy, vx, y0, x0])
