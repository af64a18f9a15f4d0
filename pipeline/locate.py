"""Find every Sudoku board on a page.

Candidates are the outlines of large dark connected shapes that look like a quadrilateral (a
grid's lines all join its border, so the whole grid is one shape). Each candidate is warped and
must show a Sudoku lattice (evenly spaced lines with thicker box lines), which rejects text
blocks, photos and crosswords. A fully inked grid beside partly filled ones is a printed
solution, not a puzzle, and is dropped.
"""

from __future__ import annotations

import cv2
import numpy as np

from pipeline.board import BoardImage, BoardLocation, CellKind
from pipeline.cells import classify_cells
from pipeline.errors import LatticeNotFound
from pipeline.quad import order_corners, refine_corners
from pipeline.rectify import survey_board

# Candidates are looked for on a copy of the page with its longer side at most this many
# pixels: plenty to place corners within a fraction of a cell, and quick.
SEARCH_SIDE = 1000
# A board covers at least this share of the page (a book page of 6 boards gives each ~8%; a
# 25x25 grid smaller than this could not be read anyway).
MIN_AREA_SHARE = 0.01
# Outline simplification tolerances (share of the perimeter), tried in turn until a quad
# appears: bent page edges and rounded corners need the looser ones.
APPROX_TOLERANCES = (0.02, 0.035, 0.05)
# The quad's shape, loosely: perspective from a handheld phone makes squares into trapezoids.
MAX_SIDE_RATIO = 2.0
# The outline must fill its convex hull: a grid is a solid block of lines, a text paragraph or
# an L-shaped layout is not.
MIN_SOLIDITY = 0.85
# A grid whose cells are all inked is a solution when other grids on the page are not.
FILLED_SHARE = 0.95


def find_boards(pixels: np.ndarray) -> list[BoardLocation]:
    """Every Sudoku board on a BGR page, in reading order; [] when there is none."""
    scale = min(1.0, SEARCH_SIDE / max(pixels.shape[:2]))
    gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    if scale < 1:
        gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    boards: list[BoardImage] = []
    for outline, rough in _candidate_quads(gray):
        if any(_inside(rough.mean(axis=0), b.location.corners * scale) for b in boards):
            continue
        corners = refine_corners(outline, rough)
        location = BoardLocation((corners / scale).astype(np.float32))
        try:
            boards.append(survey_board(pixels, location))
        except LatticeNotFound:
            continue
    return reading_order([b.location for b in _drop_solutions(boards)])


def _candidate_quads(gray: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Outlines of large dark shapes that are roughly quadrilateral, largest first, each with
    its rough corners TL, TR, BR, BL."""
    block = max(15, (max(gray.shape) // 25) | 1)
    ink = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 7
    )
    # Close one-pixel breaks in faint, blurred lines so the grid stays one shape.
    ink = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    min_area = MIN_AREA_SHARE * gray.shape[0] * gray.shape[1]
    quads: list[tuple[float, np.ndarray, np.ndarray]] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        hull = cv2.convexHull(contour)
        if area < MIN_SOLIDITY * cv2.contourArea(hull):
            continue
        corners = _quad_of(hull)
        if corners is None:
            continue
        if _plausible(corners):
            outline = contour.reshape(-1, 2).astype(np.float32)
            quads.append((cv2.contourArea(corners), outline, corners))
    quads.sort(key=lambda item: -item[0])
    return [(outline, corners) for _, outline, corners in quads]


def _quad_of(hull: np.ndarray) -> np.ndarray | None:
    perimeter = cv2.arcLength(hull, closed=True)
    for tolerance in APPROX_TOLERANCES:
        approx = cv2.approxPolyDP(hull, tolerance * perimeter, closed=True)
        if len(approx) == 4:
            return order_corners(approx.reshape(4, 2).astype(np.float32))
    return None


def _plausible(corners: np.ndarray) -> bool:
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    if sides.min() <= 0:
        return False
    width, height = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return (
        max(sides[0], sides[2]) / min(sides[0], sides[2]) <= MAX_SIDE_RATIO
        and max(sides[1], sides[3]) / min(sides[1], sides[3]) <= MAX_SIDE_RATIO
        and max(width, height) / min(width, height) <= MAX_SIDE_RATIO
        and cv2.isContourConvex(corners.astype(np.float32))
    )


def _inside(point: np.ndarray, corners: np.ndarray) -> bool:
    return cv2.pointPolygonTest(corners.astype(np.float32), tuple(map(float, point)), False) >= 0


def _drop_solutions(boards: list[BoardImage]) -> list[BoardImage]:
    """Drop fully inked grids (printed solutions) when some grid on the page is a puzzle."""
    if len(boards) < 2:
        return boards
    filled = [_filled_share(b) >= FILLED_SHARE for b in boards]
    if all(filled):
        return boards
    return [b for b, full in zip(boards, filled, strict=True) if not full]


def _filled_share(board: BoardImage) -> float:
    cells = classify_cells(board)
    return sum(c.kind is not CellKind.EMPTY for c in cells) / len(cells)


def reading_order(locations: list[BoardLocation]) -> list[BoardLocation]:
    """Rows of boards top to bottom, each row left to right.

    Boards share a row when their vertical spans overlap by more than half of the shorter one,
    which tolerates the tilt of a photographed page.
    """
    rows: list[list[BoardLocation]] = []
    for location in sorted(locations, key=lambda b: float(b.corners[:, 1].min())):
        top, bottom = location.corners[:, 1].min(), location.corners[:, 1].max()
        for row in rows:
            r_top, r_bottom = row[0].corners[:, 1].min(), row[0].corners[:, 1].max()
            overlap = min(bottom, r_bottom) - max(top, r_top)
            if overlap > 0.5 * min(bottom - top, r_bottom - r_top):
                row.append(location)
                break
        else:
            rows.append([location])
    return [b for row in rows for b in sorted(row, key=lambda b: float(b.corners[:, 0].mean()))]
