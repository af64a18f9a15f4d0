"""Quadrilateral helpers: corner order and line intersection."""

from __future__ import annotations

import numpy as np


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four points ordered TL, TR, BR, BL (clockwise on screen, starting nearest the origin)."""
    centre = points.mean(axis=0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    clockwise = points[np.argsort(angles)]  # y points down, so increasing angle is clockwise
    start = int(np.argmin(clockwise.sum(axis=1)))
    return np.roll(clockwise, -start, axis=0).astype(np.float32)


def intersect_lines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two lines (vx, vy, x0, y0) cross; NaNs when they are parallel."""
    matrix = np.array([[a[0], -b[0]], [a[1], -b[1]]], dtype=np.float64)
    if abs(np.linalg.det(matrix)) < 1e-9:
        return np.array([np.nan, np.nan])
    t = np.linalg.solve(matrix, np.array([b[2] - a[2], b[3] - a[3]], dtype=np.float64))[0]
    return np.array([a[2] + t * a[0], a[3] + t * a[1]])
