"""Split an outline that holds grids printed against each other into one outline per grid.

Grids printed with no gap between them make one outline, which may even read as a Sudoku of
another size (four 9x9s sharing their borders show 7 evenly spaced heavy lines, as a 12x12
with 2x6 boxes does among its lines). What gives them away is how their lines repeat: a
Sudoku's box is as many cells wide as there are box lines across it, so along each side its
cells number the product of the cells between heavy lines in both directions. An outline
with twice that many along a side holds two grids across it, and is split in the middle
there; so is one twice as long as wide, which no single Sudoku is. Each part is then judged
as a grid of its own.
"""

from __future__ import annotations

import cv2
import numpy as np

from pipeline.board import BoardImage

# A Sudoku is square; an outline whose sides differ by about this factor is two grids in a row.
ROW_OF_TWO = (1.8, 2.2)
# Bands of rows (columns) a line must be dark in all of.
BANDS = 16
# A line is a peak of the darkness profile rising this share of the way from the paper to the
# darkest line...
LINE_SHARE = 0.12
# ...and the highest peak within half of the narrowest cell: a board holds at most this many
# (two 25x25 grids across it), and a line blurred into a double peak is one line...
NARROWEST_CELLS = 50
# ...and a heavy (box) line holds at least this much more ink than the median line.
HEAVY_WEIGHT = 1.5
# Lines (and heavy lines) of a grid are evenly spaced within this share of their spacing.
EVEN_SPACING = 0.2


def parts_of_outline(corners: np.ndarray) -> list[np.ndarray]:
    """The two halves of an outline about twice as long as wide (TL, TR, BR, BL each), else []."""
    top, right = np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[1])
    bottom, left = np.linalg.norm(corners[2] - corners[3]), np.linalg.norm(corners[3] - corners[0])
    ratio = (top + bottom) / (left + right)
    if ROW_OF_TWO[0] <= ratio <= ROW_OF_TWO[1]:
        return _parts(_from_unit_square(corners), columns=2, rows=1)
    if ROW_OF_TWO[0] <= 1 / ratio <= ROW_OF_TWO[1]:
        return _parts(_from_unit_square(corners), columns=1, rows=2)
    return []


def parts_of_board(board: BoardImage) -> list[np.ndarray]:
    """The grids of a surveyed board that holds two side by side (or two by two), as outlines
    on the page; [] when it is one grid."""
    halves = parts_of_outline(board.location.corners)
    if halves:
        return halves
    pixels = board.pixels
    gray = pixels if pixels.ndim == 2 else cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    across, down = _cells_and_box(_line_darkness(gray, 0)), _cells_and_box(_line_darkness(gray, 1))
    if across is None or down is None:
        return []
    box_cells = across[1] * down[1]
    columns, rows = across[0] // box_cells, down[0] // box_cells
    if {across[0], down[0]} - {box_cells, 2 * box_cells} or columns == rows == 1:
        return []
    side = gray.shape[0]
    return _parts(np.linalg.inv(board.homography) @ np.diag([side, side, 1.0]), columns, rows)


def _line_darkness(gray: np.ndarray, axis: int) -> np.ndarray:
    """Per column (``axis`` 0; per row, 1), its darkness in the band of rows (columns) where
    it is lightest, give or take a few columns: a printed line is dark in every band, a
    digit's stroke only in a few."""
    bands = np.array_split(gray, BANDS, axis=axis)
    means = np.array(
        [cv2.reduce(band, axis, cv2.REDUCE_AVG, dtype=cv2.CV_32F).ravel() for band in bands]
    )
    # A line a little askew in the warp (a rough outline) moves across bands by a pixel or two.
    drift = max(3, round(means.shape[1] / NARROWEST_CELLS / 2)) | 1
    return 255.0 - cv2.erode(means, np.ones((1, drift), np.uint8)).max(axis=0)


def _cells_and_box(profile: np.ndarray) -> tuple[int, int] | None:
    """Along one axis of a board, its cells and the cells between its heavy lines, or None
    when its lines are not evenly spaced with evenly spaced heavy lines among them."""
    # Above the paper around it: a photo's light falls off across the board.
    width = max(3, round(len(profile) / NARROWEST_CELLS))
    column = profile.astype(np.float32)[:, None]
    rise = (column - cv2.morphologyEx(column, cv2.MORPH_OPEN, np.ones((width, 1), np.uint8)))[:, 0]
    top = float(rise.max())
    if top <= 0:
        return None
    # Padded, so that a border cut in half by the board's edge is a peak too.
    padded = np.pad(rise, 1)
    peak = (rise >= LINE_SHARE * top) & (rise >= padded[:-2]) & (rise > padded[2:])
    lines = _apart(np.flatnonzero(peak), rise, len(profile) / NARROWEST_CELLS / 2)
    if len(lines) < 3:
        return None
    cell = float(np.median(np.diff(lines)))
    # A digit's stroke that is dark in every band (a column of ones) is a peak between two
    # lines: of two peaks too close together, the fainter goes.
    while len(short := np.flatnonzero(np.diff(lines) < (1 - EVEN_SPACING) * cell)):
        first = short[0]
        lines = np.delete(lines, first + int(rise[lines[first]] >= rise[lines[first + 1]]))
    spacing = np.diff(lines)
    if len(lines) < 3 or np.abs(spacing - cell).max() > EVEN_SPACING * cell:
        return None
    reach = max(1, round(cell / 4))
    summed = np.concatenate([[0.0], np.cumsum(rise)])
    weights = (
        summed[np.minimum(lines + reach + 1, len(rise))] - summed[np.maximum(lines - reach, 0)]
    )
    heavy = lines[weights >= HEAVY_WEIGHT * np.median(weights)]
    if len(heavy) < 3:
        return None
    box = np.diff(heavy) / cell
    per_box = round(float(np.median(box)))
    if per_box < 2 or np.abs(box - per_box).max() > EVEN_SPACING * per_box:
        return None
    return len(lines) - 1, per_box


def _apart(peaks: np.ndarray, height: np.ndarray, gap: float) -> np.ndarray:
    """The peaks left when each one closer than ``gap`` to a higher one is dropped."""
    kept: list[int] = []
    for x in peaks[np.argsort(-height[peaks], kind="stable")]:
        if all(abs(int(x) - k) >= gap for k in kept):
            kept.append(int(x))
    return np.array(sorted(kept))


def _from_unit_square(corners: np.ndarray) -> np.ndarray:
    """The homography from the unit square onto an outline's corners (TL, TR, BR, BL)."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    return cv2.getPerspectiveTransform(unit, corners.astype(np.float32))


def _parts(from_unit_square: np.ndarray, columns: int, rows: int) -> list[np.ndarray]:
    """The outlines on the page of a columns x rows split of the unit square."""
    parts = []
    for r in range(rows):
        for c in range(columns):
            x0, x1, y0, y1 = c / columns, (c + 1) / columns, r / rows, (r + 1) / rows
            unit = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
            parts.append(cv2.perspectiveTransform(unit, from_unit_square)[0].astype(np.float32))
    return parts
