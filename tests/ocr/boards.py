"""Rectified boards for recognition tests, warped with known corners (no board finding)."""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, BoardLocation, Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.rectify import square_homography


def board_from_corners(
    pixels: np.ndarray, corners: np.ndarray, shape: GridShape, cell_px: int = 48
) -> BoardImage:
    """The region inside ``corners`` (TL, TR, BR, BL) warped to equal cells of ``cell_px``."""
    side = cell_px * shape.size
    homography = square_homography(corners, side)
    warped = cv2.warpPerspective(pixels, homography, (side, side))
    lines = tuple(float(i * cell_px) for i in range(shape.size + 1))
    return BoardImage(BoardLocation(corners), warped, homography, Lattice(shape, lines, lines))
