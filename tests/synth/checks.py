"""Checks on synth's truth shared by the synth tests."""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.grid import GridShape


def assert_valid_solution(shape: GridShape, solution) -> None:
    """No row, column or box repeats a digit; every unblocked cell holds 1..N."""
    n = shape.size
    units: dict[tuple[str, int], list[int]] = {}
    for r in range(n):
        for c in range(n):
            value = solution[r][c]
            if value is None:
                continue
            assert 1 <= value <= n
            for unit in (("row", r), ("col", c), ("box", shape.box_of(r, c))):
                units.setdefault(unit, []).append(value)
    for unit, values in units.items():
        assert len(values) == len(set(values)), f"{unit} repeats a digit: {values}"


def assert_givens_fit(givens, solution) -> None:
    """Givens are the solution's digits or 0, and blocked exactly where the solution is."""
    for grow, srow in zip(givens, solution, strict=True):
        for given, answer in zip(grow, srow, strict=True):
            assert (given is None) == (answer is None)
            assert given in (0, answer, None)


def cell_centres(corners: np.ndarray, size: int) -> np.ndarray:
    """(size, size, 2) image positions of the cell centres, by the homography of the corners."""
    square = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    matrix = cv2.getPerspectiveTransform(square, np.asarray(corners, np.float32))
    grid = np.stack(np.meshgrid(np.arange(size) + 0.5, np.arange(size) + 0.5), axis=-1)
    moved = cv2.perspectiveTransform(grid.reshape(-1, 1, 2).astype(np.float64), matrix)
    return moved.reshape(size, size, 2)


def assert_corners_inside(corners, width: int, height: int) -> None:
    corners = np.asarray(corners)
    assert corners.shape == (4, 2)
    assert (corners >= 0).all() and (corners[:, 0] < width).all() and (corners[:, 1] < height).all()
