"""A board warped again with a margin around it, and its grid-line strokes: where the lines of
a board whose corners are a little off can be looked for, inside or outside those corners."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage
from sudoku_batch.pipeline.vision.lattice import ink_mask, ink_offset, line_strokes
from sudoku_batch.pipeline.vision.levels import grey_levels
from sudoku_batch.pipeline.vision.warp import warp

# The paper's shade is the grey level this share of the board's pixels is darker than (cells
# are mostly paper; the lines and digits are the darkest tenth at most).
PAPER_PERCENT = 90
# A line or a bold digit's stroke is darker than what lies on both sides of it across at most
# a cell; a shaded box, two cells or more across, has edges that are steps, darker on one side.
# The ink mask takes a band along each edge of a shaded box for ink (darker than the paper and
# shade around it): on a board with shaded boxes a large share of its ink is such steps, on
# one without, next to none (bold digits and lines are strokes).
FILLED_STEP_SHARE = 0.1


@dataclass(frozen=True)
class Surround:
    """A board warped again with a margin around it, and its grid-line strokes."""

    homography: np.ndarray  # page -> padded board
    grey: np.ndarray  # the padded board
    across: np.ndarray  # horizontal strokes
    down: np.ndarray  # vertical strokes
    rows: tuple[float, ...]  # the lattice's lines, in padded-board pixels
    cols: tuple[float, ...]
    cell: float
    margin: int  # board pixels -> padded-board pixels: add this to x and y
    filled: bool  # the board has shaded boxes: its strokes are its ink darker than both sides


def surround(
    pixels: np.ndarray, board: BoardImage, reach: float, lines_only: bool = False
) -> Surround:
    """The board warped with a margin of ``reach`` cells on every side.

    With ``lines_only``, on a board with shaded boxes only the ink darker than both sides of
    it makes strokes, so that a line is not traced on the band of shade beside it, into the
    box."""
    side = board.pixels.shape[0]
    cell = side / board.shape.size
    margin = int(np.ceil(reach * cell)) + 1
    shift = np.array([[1, 0, margin], [0, 1, margin], [0, 0, 1]], dtype=np.float64)
    homography = shift @ board.homography
    # Beyond the photo's edge is blank paper of the board's own shade, not a dark frame (or a
    # smeared edge line) that would read as ink, nor white, against which the photo's grey
    # paper along its edge would.
    paper = grey_levels(_grey(board.pixels), (PAPER_PERCENT,))[0]
    padded = warp(pixels, homography, (side + 2 * margin, side + 2 * margin), (paper,) * 3)
    grey = _grey(padded)
    ink = ink_mask(grey)
    strokes, filled = ink, False
    if lines_only:
        thin = cv2.bitwise_and(ink, thin_ink(grey, int(cell) | 1))
        inside = (slice(margin, margin + side), slice(margin, margin + side))
        filled = _steps_share(ink[inside], thin[inside]) >= FILLED_STEP_SHARE
        strokes = thin if filled else ink
    return Surround(
        homography,
        grey,
        line_strokes(strokes, horizontal=True),
        line_strokes(strokes, horizontal=False),
        tuple(p + margin for p in board.lattice.row_lines),
        tuple(p + margin for p in board.lattice.col_lines),
        cell,
        margin,
        filled,
    )


def thin_ink(grey: np.ndarray, widest: int) -> np.ndarray:
    """Where (255) a stroke up to ``widest`` pixels thick, across or down, is darker than the
    grey on both sides of it: a line or a digit's stroke, not the edge of a shaded area (a
    step, darker on one side only). Either way round, so that a line keeps its crossings with
    lines and strokes the other way."""
    darker = np.zeros_like(grey)
    for kernel in ((1, widest), (widest, 1)):
        closed = cv2.morphologyEx(
            grey, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, kernel)
        )
        darker = cv2.max(darker, cv2.subtract(closed, grey))
    return cv2.compare(darker, ink_offset(grey), cv2.CMP_GE)


def _steps_share(ink: np.ndarray, thin: np.ndarray) -> float:
    """The share of the ink that is not darker than both sides of it."""
    inked = cv2.countNonZero(ink)
    return (inked - cv2.countNonZero(thin)) / inked if inked else 0.0


def _grey(pixels: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY) if pixels.ndim == 3 else pixels


@dataclass(frozen=True)
class Runs:
    """The runs of inked rows of a profile: run i spans rows starts[i] to ends[i] - 1."""

    starts: list[int]
    ends: list[int]

    def nearest(self, expected: float) -> tuple[int, int] | None:
        """The run [start, end) nearest the expected line (other runs are text or rules
        beside the grid, or a neighbouring line); None when there is none."""
        # Runs are sorted and apart: the nearest is the last starting at or before the
        # expected row, or the next one.
        after = bisect_right(self.starts, expected)
        best: tuple[float, int] | None = None
        for i in (after - 1, after):
            if 0 <= i < len(self.starts):
                distance = max(0.0, self.starts[i] - expected, expected - self.ends[i])
                if best is None or distance < best[0]:
                    best = (distance, i)
        return None if best is None else (self.starts[best[1]], self.ends[best[1]])


def inked_runs(inked: np.ndarray) -> Runs:
    """The runs of True in a boolean profile."""
    # Run edges from the padded difference: quicker than grouping the inked rows' indices.
    edges = np.diff(np.concatenate(([0], inked.view(np.int8), [0])))
    return Runs(np.flatnonzero(edges > 0).tolist(), np.flatnonzero(edges < 0).tolist())
