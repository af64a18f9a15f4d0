"""Quadrilateral helpers: corner order and corners refined from an outline's straight sides."""

from __future__ import annotations

import cv2
import numpy as np

# Outline points count towards a side when they lie within this share of the side's length of
# the rough side, and away from its ends (where rounded corners and text touching it bend it).
SIDE_BAND = 0.04
SIDE_SPAN = (0.1, 0.9)
# A refined corner that moved further than this share of the shorter side is not trusted.
MAX_CORNER_SHIFT = 0.08


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four points ordered TL, TR, BR, BL (clockwise on screen, starting nearest the origin)."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    clockwise = points[np.argsort(angles)]  # y points down, so increasing angle is clockwise
    start = int(np.argmin(clockwise.sum(axis=1)))
    return np.roll(clockwise, -start, axis=0).astype(np.float32)


def refine_corners(outline: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Corners as the intersections of straight lines fitted to the outline's four sides.

    A polygon approximation puts its vertices on outline points, which land inside a rounded or
    blurred corner; the intersection of the fitted sides lands where the printed lines meet.
    """
    lines = []
    for i in range(4):
        line = _fit_side(outline, corners[i], corners[(i + 1) % 4])
        if line is None:
            return corners
        lines.append(line)
    refined = np.array(
        [_intersect(lines[(i - 1) % 4], lines[i]) for i in range(4)], dtype=np.float32
    )
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    shift = np.linalg.norm(refined - corners, axis=1)
    if not np.all(np.isfinite(refined)) or shift.max() > MAX_CORNER_SHIFT * sides.min():
        return corners
    return refined


def _fit_side(outline: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray | None:
    direction = end - start
    length = float(np.linalg.norm(direction))
    if length == 0:
        return None
    unit = direction / length
    relative = outline - start
    along = relative @ unit / length
    across = np.abs(relative[:, 0] * unit[1] - relative[:, 1] * unit[0])
    chosen = outline[
        (along > SIDE_SPAN[0]) & (along < SIDE_SPAN[1]) & (across < SIDE_BAND * length)
    ]
    if len(chosen) < 5:
        return None
    return cv2.fitLine(chosen, cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)


def _intersect(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two lines (vx, vy, x0, y0) cross."""
    matrix = np.array([[a[0], -b[0]], [a[1], -b[1]]], dtype=np.float64)
    if abs(np.linalg.det(matrix)) < 1e-9:
        return np.array([np.nan, np.nan])
    t = np.linalg.solve(matrix, np.array([b[2] - a[2], b[3] - a[3]], dtype=np.float64))[0]
    return np.array([a[2] + t * a[0], a[3] + t * a[1]])
