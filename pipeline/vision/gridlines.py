"""Refit a board's corners to all of its printed grid lines, not only its outer border.

Four corners fix the warp at four points: one placed off (text or a shadow against the grid,
a bent page corner) slants every line near it in the warp and cuts the cells there. The
lattice's position of each line is where the line runs on average, i.e. about where it
crosses the middle of the board even when a corner is off, so each line is traced from there
outwards, strip by strip, each strip searched near where the strips before it put the line.
The crossings of the traced lines are matched to their places on an ideal grid and a
homography is fitted to all of them, robustly, which places the corners where the whole
print says they are.
"""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage
from sudoku_batch.pipeline.vision.surround import Runs, Surround, inked_runs, surround

# The board is warped again with this margin (cells) around it: a side may lie outside the
# corners by up to a row at a corner, half of that on average.
MARGIN_CELLS = 0.6
# Each strip is this share of a cell wide, centred on a cell: narrow enough that a line slanted
# by a corner a row off stays within a few pixels across it.
STRIP_WIDTH = 0.5
# A strip counts a row as part of the line when this share of it is line ink.
STRIP_COVERAGE = 0.5
# A run of ink wider than this share of a cell is not a line but a solid or dark-shaded cell
# beside it, whose middle is no line's (a blurred border merged with a shadow or the paper's
# edge beside it makes runs of up to about a quarter of a cell).
MAX_LINE_WIDTH = 0.5
# A line is looked for within this share of a cell of where the strips before it predict it:
# well short of the next line (a cell away), well beyond the drift from one strip to the next.
TRACK_REACH = 0.3
# A traced line needs points in this many strips to be fitted; a quadratic (a curled page)
# from this many, a straight line below.
MIN_POINTS = 3
CURVED_FROM = 7
# A traced point further than this (board pixels) from its line's first fit is dropped: lines
# are a few pixels wide, a strip that caught something else is off by more.
OFF_LINE_PX = 3.0
# Crossings off the fitted homography by more than this share of a cell are outliers (a line
# traced onto a neighbouring rule); the fit needs this share of all crossings as inliers.
INLIER_CELLS = 0.15
MIN_INLIER_SHARE = 0.5
# A corner stays where the traced border lines cross unless that is this far (cells) off the
# homography of all the crossings: a curled page or a lens bends the border by a fraction of a
# cell, a side traced onto the wrong line puts it a cell off.
CORNER_AGREEMENT = 0.5


def fit_to_lines(pixels: np.ndarray, board: BoardImage) -> np.ndarray | None:
    """The board's corners TL, TR, BR, BL in page pixels, fitted to the crossings of all of
    its printed lines; None when too few lines could be traced to say.

    A corner is where the traced border lines cross (the centre line of the border, as
    ``fit_border`` places it) when that agrees with all the crossings; else where they put it.
    """
    around = surround(pixels, board, MARGIN_CELLS, lines_only=True)
    found_rows, found_cols, xs, ys = traced_crossings(around)
    n = board.shape.size
    needed = MIN_INLIER_SHARE * (n + 1) ** 2
    if len(found_rows) * len(found_cols) < needed:
        return None
    to_page = np.linalg.inv(around.homography)
    page = cv2.perspectiveTransform(
        np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2), to_page
    ).reshape(-1, 2)
    places = [(j, i) for i in found_rows for j in found_cols]
    to_grid, inliers = cv2.findHomography(
        page, np.array(places, np.float64), cv2.RANSAC, INLIER_CELLS
    )
    if to_grid is None or int(inliers.sum()) < needed:
        return None
    on_page = dict(zip(places, page, strict=True))
    grid_corners = [(0, 0), (n, 0), (n, n), (0, n)]
    modelled = cv2.perspectiveTransform(
        np.array(grid_corners, np.float64).reshape(-1, 1, 2), np.linalg.inv(to_grid)
    ).reshape(-1, 2)
    corners = []
    for place, model in zip(grid_corners, modelled, strict=True):
        printed = on_page.get(place)
        if printed is not None and _off_by(printed, place, to_grid) <= CORNER_AGREEMENT:
            corners.append(printed)
        else:
            corners.append(model)
    result = np.array(corners, np.float32)
    return result if np.all(np.isfinite(result)) else None


def traced_crossings(
    around: Surround, from_corners: bool = False
) -> tuple[list[int], list[int], np.ndarray, np.ndarray]:
    """The lines of a board that could be traced (indices of its rows and columns of lines)
    and where they cross: x and y arrays (found rows x found columns) in ``around``'s pixels.

    With ``from_corners`` (corners already fitted to the lines), a line not found near the
    lattice's place is looked for near its place on the even grid between the corners: the
    lattice places a border the corners clip on the digits beside it."""
    rows, cols = around.rows, around.cols
    even = around.margin + np.arange(len(rows)) * around.cell if from_corners else None
    horizontal = _traced_lines(around.across, rows, even, cols, around.cell)
    vertical = _traced_lines(around.down.T, cols, even, rows, around.cell)
    found_rows = [i for i, line in enumerate(horizontal) if line is not None]
    found_cols = [j for j, line in enumerate(vertical) if line is not None]
    if not found_rows or not found_cols:
        return found_rows, found_cols, np.empty((0, 0)), np.empty((0, 0))
    xs, ys = _crossings(
        np.array([horizontal[i] for i in found_rows]),
        np.array([vertical[j] for j in found_cols]),
        np.array([cols[j] for j in found_cols]),
        np.array([rows[i] for i in found_rows]),
    )
    return found_rows, found_cols, xs, ys


def _off_by(point: np.ndarray, place: tuple[int, int], to_grid: np.ndarray) -> float:
    """How far (cells) a page point lies from its place on the grid the homography fits."""
    on_grid = cv2.perspectiveTransform(point.reshape(1, 1, 2), to_grid).reshape(2)
    return float(np.linalg.norm(on_grid - np.array(place, np.float64)))


def _traced_lines(
    strokes: np.ndarray,
    lines: tuple[float, ...],
    even: np.ndarray | None,
    across: tuple[float, ...],
    cell: float,
) -> list[np.ndarray | None]:
    """Per horizontal line of ``strokes`` (near each of ``lines``, else of ``even`` when
    given), its fitted quadratic coefficients of position against along, or None where it
    could not be traced."""
    centres = [(a + b) / 2 for a, b in zip(across[:-1], across[1:], strict=True)]
    half = STRIP_WIDTH * cell / 2
    # Which rows each strip (across the lines, one per cell) counts as line ink, once for all
    # the lines that cross it.
    inked = [
        inked_runs(
            _row_means(strokes[:, max(0, int(round(x - half))) : int(round(x + half)) + 1])
            >= 255 * STRIP_COVERAGE
        )
        for x in centres
    ]
    traced = []
    for i, line in enumerate(lines):
        fitted = _fitted(_trace(inked, centres, line, cell))
        if fitted is None and even is not None:
            fitted = _fitted(_trace(inked, centres, float(even[i]), cell))
        traced.append(fitted)
    return traced


def _trace(
    inked: list[Runs], centres: list[float], line: float, cell: float
) -> list[tuple[float, float]]:
    """Points (along, position) of the line near ``line``, one per strip, traced from the
    middle strip outwards."""
    reach = TRACK_REACH * cell
    middle = len(centres) // 2
    points: dict[int, tuple[float, float]] = {}
    # The strips traced so far, nearest the next one first: each pass moves away from the
    # middle, so a new point is the nearest, and the second pass starts next to the first's
    # lowest strips.
    for order in (range(middle, len(centres)), range(middle - 1, -1, -1)):
        nearest = sorted(points)
        for k in order:
            expected = _predicted(points, nearest[:2], centres[k], line)
            # The whole run, not the part inside the reach, so that a solid cell beside the
            # line is seen for what it is.
            run = inked[k].nearest(expected)
            if run is None or run[1] - run[0] > MAX_LINE_WIDTH * cell:
                continue
            centre = sum(run) / 2
            if abs(centre - expected) <= reach:
                points[k] = (centres[k], centre)
                nearest.insert(0, k)
    return [points[k] for k in sorted(points)]


def _predicted(
    points: dict[int, tuple[float, float]], nearest: list[int], x: float, line: float
) -> float:
    """Where the line should cross the strip at x: straight on from the (one or two) nearest
    points traced, nearest first."""
    if not nearest:
        return line
    x0, y0 = points[nearest[0]]
    if len(nearest) == 1:
        return y0
    x1, y1 = points[nearest[1]]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def _row_means(strip: np.ndarray) -> np.ndarray:
    """Each row's mean of a uint8 strip, as numpy's mean gives it (the exact sum over the
    count), by OpenCV's reduction, which is several times quicker."""
    return cv2.reduce(strip, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel() / strip.shape[1]


def _fitted(points: list[tuple[float, float]]) -> np.ndarray | None:
    """Quadratic coefficients (a straight line has a zero first one) of position against
    along for a traced line, fitted again without the points far off the first fit (a strip
    that caught a digit or a smudge); None when too few points were traced."""
    if len(points) < MIN_POINTS:
        return None
    xs, ys = (np.array(values) for values in zip(*points, strict=True))
    coefficients = _polyfit(xs, ys)
    kept = np.abs(np.polyval(coefficients, xs) - ys) <= OFF_LINE_PX
    if kept.sum() < MIN_POINTS:
        return None
    return _polyfit(xs[kept], ys[kept])


def _polyfit(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """A quadratic through enough points to bend (a curled page), else a straight line."""
    if len(xs) >= CURVED_FROM:
        return np.polyfit(xs, ys, 2)
    return np.r_[0.0, np.polyfit(xs, ys, 1)]


def _crossings(
    horizontal: np.ndarray, vertical: np.ndarray, xs: np.ndarray, ys: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Where each horizontal line y = h(x) meets each vertical line x = v(y) (coefficients
    one line a row), as (rows x columns) arrays, starting from the lattice's lines ``xs`` and
    ``ys``: the lines are nearly straight and perpendicular, so a few steps settle."""
    x = np.broadcast_to(xs[None, :], (len(ys), len(xs)))
    y = np.broadcast_to(ys[:, None], (len(ys), len(xs)))
    for _ in range(3):
        x = vertical[None, :, 0] * y**2 + vertical[None, :, 1] * y + vertical[None, :, 2]
        y = horizontal[:, None, 0] * x**2 + horizontal[:, None, 1] * x + horizontal[:, None, 2]
    return x, y
