"""A board warped again with a margin around it, and its grid-line strokes: where the lines of
a board whose corners are a little off can be looked for, inside or outside those corners."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from pipeline.board import BoardImage
from pipeline.lattice import ink_mask, line_strokes
from pipeline.levels import grey_levels

# The paper's shade is the grey level this share of the board's pixels is darker than (cells
# are mostly paper; the lines and digits are the darkest tenth at most).
PAPER_PERCENT = 90


@dataclass(frozen=True)
class Surround:
    """A board warped again with a margin around it, and its grid-line strokes."""

    homography: np.ndarray  # page -> padded board
    across: np.ndarray  # horizontal strokes
    down: np.ndarray  # vertical strokes
    rows: tuple[float, ...]  # the lattice's lines, in padded-board pixels
    cols: tuple[float, ...]
    cell: float
    margin: int  # board pixels -> padded-board pixels: add this to x and y


def surround(pixels: np.ndarray, board: BoardImage, reach: float) -> Surround:
    """The board warped with a margin of ``reach`` cells on every side."""
    side = board.pixels.shape[0]
    margin = int(np.ceil(reach * side / board.shape.size)) + 1
    shift = np.array([[1, 0, margin], [0, 1, margin], [0, 0, 1]], dtype=np.float64)
    homography = shift @ board.homography
    # Beyond the photo's edge is blank paper of the board's own shade, not a dark frame (or a
    # smeared edge line) that would read as ink, nor white, against which the photo's grey
    # paper along its edge would.
    paper = grey_levels(_grey(board.pixels), (PAPER_PERCENT,))[0]
    padded = cv2.warpPerspective(
        pixels,
        homography,
        (side + 2 * margin, side + 2 * margin),
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(paper, paper, paper),
    )
    ink = ink_mask(_grey(padded))
    return Surround(
        homography,
        line_strokes(ink, horizontal=True),
        line_strokes(ink, horizontal=False),
        tuple(p + margin for p in board.lattice.row_lines),
        tuple(p + margin for p in board.lattice.col_lines),
        side / board.shape.size,
        margin,
    )


def _grey(pixels: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY) if pixels.ndim == 3 else pixels


def nearest_run(inked: np.ndarray, expected: float) -> tuple[int, int] | None:
    """The run [start, end) of inked rows nearest the expected line (other runs are text or
    rules beside the grid, or a neighbouring line); None when no row is inked."""
    # Run edges from the padded difference: quicker on these few rows than grouping the
    # inked rows' indices.
    edges = np.diff(np.concatenate(([0], inked.view(np.int8), [0])))
    starts, ends = np.flatnonzero(edges > 0), np.flatnonzero(edges < 0)
    if starts.size == 0:
        return None
    distance = np.maximum(0, np.maximum(starts - expected, expected - ends))
    nearest = int(np.argmin(distance))
    return int(starts[nearest]), int(ends[nearest])
