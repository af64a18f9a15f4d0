"""Re-fit a board's corners to its printed outer border, and check that the grid ends there.

A candidate outline is only roughly placed: text printed against the grid, a faint or cut-off
border, or a rounded corner pull its corners off by a few pixels up to a third of a cell. Once
the lattice is known, each side of the border can be found where it is printed: near the
lattice's outer line, strip by strip along the board. Corners are put on the centre line of
the border, the one place every way of drawing a border (thin, thick, double-struck, blurred)
agrees on.
"""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage
from sudoku_batch.pipeline.vision.quad import intersect_lines
from sudoku_batch.pipeline.vision.surround import Runs, Surround, inked_runs, surround

# The border is looked for within this share of a cell of the lattice's outer line.
SEARCH_FRACTION = 0.3
# A strip counts a row (column) as part of the border when this share of it is line ink.
STRIP_COVERAGE = 0.5
# Print showing through from the back page is at most about this share as dark as the print
# on the front (paper lets through a third of it at most), a border the same ink as its lines:
# a run this much fainter than another in the border's window is passed over.
SHOW_THROUGH_SHARE = 0.5
# Fewer strips than this with a border edge leave the side too uncertain to move.
MIN_STRIPS = 3
# Beyond a whole grid's border, from this far out to this far (shares of a cell), the grid's
# lines do not go on. The band starts right past the border (a border line, however thick, is
# no stroke across it), so that a neighbouring grid's lines beyond a gap of a millimetre or
# two are not taken for this grid's going on. A line goes on when it is inked along this share
# of that band, and a grid goes on when this share of its lines do on one side.
OUTSIDE_REACH = (0.05, 0.5)
CONTINUING_COVERAGE = 0.7
CONTINUING_SHARE = 0.5
# A line broken for at most this many pixels (noise, a JPEG block) still runs on.
GAP_PX = 2


def fit_border(pixels: np.ndarray, board: BoardImage) -> np.ndarray | None:
    """The board's corners TL, TR, BR, BL in page pixels, fitted to the centre line of its
    printed border; None when a side of the border cannot be traced.

    The board is warped again with a margin, so that a border lying outside the current
    corners can be found too. On a board taken for one with shaded boxes the border is traced
    on its line strokes (``surround``'s ``lines_only``); where it cannot be (a page's grain or
    tint taken for shading thins its border away), on all of its ink.
    """
    around = surround(pixels, board, SEARCH_FRACTION, lines_only=True)
    corners = _border_corners(around)
    if corners is None and around.filled:
        around = surround(pixels, board, SEARCH_FRACTION)
        corners = _border_corners(around)
    if corners is None:
        return None
    to_page = np.linalg.inv(around.homography)
    page = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_page).reshape(4, 2)
    return page.astype(np.float32)


def _border_corners(around: Surround) -> np.ndarray | None:
    """The corners of the border traced in ``around`` (padded-board pixels), or None."""
    rows, cols = around.rows, around.cols
    # Sides as (vx, vy, x0, y0) in board pixels: top, right, bottom, left.
    sides = [
        _side(around.across, around.grey, rows[0], cols),
        _side(around.down.T, around.grey.T, cols[-1], rows),
        _side(around.across, around.grey, rows[-1], cols),
        _side(around.down.T, around.grey.T, cols[0], rows),
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
    return corners if np.all(np.isfinite(corners)) else None


def grid_continues_outside(pixels: np.ndarray, board: BoardImage) -> bool:
    """Whether the grid's lines run on past one side of its border: then the board is a box
    or a block of cells of a larger grid, not a whole grid."""
    around = surround(pixels, board, OUTSIDE_REACH[1])
    rows, cols = around.rows, around.cols
    near, far = (reach * around.cell for reach in OUTSIDE_REACH)
    # Lines as columns, and the strokes parallel to the side in the same axes.
    down, across = (around.down, around.across), (around.across.T, around.down.T)
    # Each band with its rows ordered outwards from the border (flipped above and left).
    bands = [
        (down, rows[0], -1, cols),  # above the top side
        (down, rows[-1], 1, cols),  # below the bottom side
        (across, cols[0], -1, rows),  # left of the left side
        (across, cols[-1], 1, rows),  # right of the right side
    ]
    half_width = max(2, int(round(0.06 * around.cell)))
    for (strokes, parallel), side, outwards, lines in bands:
        band = _outwards(strokes, side, outwards, near, far)
        if band.shape[0] == 0:
            continue
        beyond = _outwards(parallel, side, outwards, 0.0, far)
        continuing = 0
        for before, line, following in zip(lines[:-2], lines[1:-1], lines[2:], strict=True):
            # A line goes on where it is inked from the border outwards (a neighbouring grid's
            # lines across a gap do not) and the cell beside it is not (a dark margin, shadow
            # or the photo's edge inks both), with no other border across it (the cells beyond
            # are another grid's, lined up by chance).
            on_line = _inked_from_border(band, line, half_width)
            beside = _inked_share(band, (line + following) / 2, half_width)
            continuing += (
                on_line >= CONTINUING_COVERAGE
                and beside < 1 - CONTINUING_COVERAGE
                and not _second_border(beyond, (before + line) / 2, (line + following) / 2)
            )
        if continuing >= CONTINUING_SHARE * (len(lines) - 2):
            return True
    return False


def _outwards(
    strokes: np.ndarray, side: float, outwards: int, start: float, end: float
) -> np.ndarray:
    """The rows of ``strokes`` from ``start`` to ``end`` pixels past a side (at row ``side``),
    ordered outwards from it (``outwards`` -1: above it)."""
    if outwards > 0:
        return strokes[max(0, int(round(side + start))) : int(round(side + end)) + 1]
    return strokes[max(0, int(round(side - end))) : int(round(side - start)) + 1][::-1]


def _second_border(beyond: np.ndarray, lo: float, hi: float) -> bool:
    """Whether, between columns ``lo`` and ``hi`` of the strokes parallel to a side (rows
    ordered outwards from its centre line, half a cell of them), another line runs along it
    past the side's own border, paper between them: no grid has cells under half a cell wide,
    so it is the border of another grid printed a millimetre or two away."""
    strip = beyond[:, max(0, int(round(lo))) : int(round(hi)) + 1]
    if strip.size == 0:
        return False
    runs = inked_runs(strip.mean(axis=1) >= 255 * CONTINUING_COVERAGE)
    return len(runs.starts) > 1


def _inked_from_border(band: np.ndarray, x: float, half_width: int) -> float:
    """The share of a band's rows, counted outwards from its first, inked without a break
    (of more than GAP_PX rows) within half_width of column x."""
    column = int(round(x))
    inked = band[:, max(0, column - half_width) : column + half_width + 1].max(axis=1) > 0
    gaps = np.flatnonzero(~inked)
    for start in gaps:
        if not inked[start : start + GAP_PX + 1].any():
            return float(start) / len(inked)
    return 1.0


def _inked_share(band: np.ndarray, x: float, half_width: int) -> float:
    """The share of a band's rows inked within half_width of column x."""
    column = int(round(x))
    return float(
        (band[:, max(0, column - half_width) : column + half_width + 1].max(axis=1) > 0).mean()
    )


def _side(
    strokes: np.ndarray, grey: np.ndarray, line: float, across: tuple[float, ...]
) -> np.ndarray | None:
    """A horizontal border side (vx, vy, x0, y0) through the centre of the line near row
    ``line`` of ``strokes`` (``grey``: the board they were found on), traced cell by cell
    along ``across``."""
    cell = (across[-1] - across[0]) / (len(across) - 1)
    reach = SEARCH_FRACTION * cell
    lo = max(0, int(round(line - reach)))
    hi = min(strokes.shape[0], int(round(line + reach)) + 1)
    points = []
    for start, end in zip(across[:-1], across[1:], strict=True):
        columns = slice(int(round(start)), int(round(end)))
        strip = strokes[lo:hi, columns]
        if strip.size == 0:
            continue
        runs = inked_runs(strip.mean(axis=1) >= 255 * STRIP_COVERAGE)
        run = _printed(runs, grey[lo:hi, columns]).nearest(line - lo)
        if run is not None:
            # The middle of the run of inked rows: the centre line of the border.
            points.append(((start + end) / 2, lo + sum(run) / 2))
    if len(points) < MIN_STRIPS:
        return None
    return cv2.fitLine(np.array(points, np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)


def _printed(runs: Runs, grey: np.ndarray) -> Runs:
    """The runs of a strip (its ``grey``) but those far fainter than the darkest of them:
    the back page's print showing through, not this side's own."""
    if len(runs.starts) < 2:
        return runs
    darkness = [
        _darkness(grey, start, end) for start, end in zip(runs.starts, runs.ends, strict=True)
    ]
    darkest = max(darkness)
    kept = [i for i, d in enumerate(darkness) if d >= SHOW_THROUGH_SHARE * darkest]
    return Runs([runs.starts[i] for i in kept], [runs.ends[i] for i in kept])


def _darkness(grey: np.ndarray, start: int, end: int) -> float:
    """How much darker than the strip's paper (its median) the line in rows ``start`` to
    ``end`` is: along the strip, the darkest pixel across the run, so that a thin line
    running at a slant through the run is followed, not averaged away."""
    band = grey[max(0, start - 1) : end + 1]
    return float(np.median(grey)) - float(band.min(axis=0).mean())


def _transposed(line: np.ndarray) -> np.ndarray:
    """A line fitted in the transposed image, back in board coordinates."""
    vx, vy, x0, y0 = line
    return np.array([vy, vx, y0, x0])
