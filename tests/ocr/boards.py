"""Rectified boards for recognition tests, warped with known corners (no board finding)."""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, BoardLocation, Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.pipeline.vision.rectify import square_homography
from sudoku_batch.synth.hard_photos import HardPhoto


def board_from_corners(
    pixels: np.ndarray, corners: np.ndarray, shape: GridShape, cell_px: int = 48
) -> BoardImage:
    """The region inside ``corners`` (TL, TR, BR, BL) warped to equal cells of ``cell_px``."""
    side = cell_px * shape.size
    homography = square_homography(corners, side)
    warped = cv2.warpPerspective(pixels, homography, (side, side))
    lines = tuple(float(i * cell_px) for i in range(shape.size + 1))
    return BoardImage(BoardLocation(corners), warped, homography, Lattice(shape, lines, lines))


def givens_read_and_true(photo: HardPhoto, engine: OcrEngine) -> tuple[tuple[int, ...], ...]:
    """The givens of a photo of one puzzle as the job's steps read them (board found, not
    warped with known corners), and its true givens; row-major, 0 for an empty cell."""
    (puzzle,) = photo.puzzles
    (rectified,) = rectify_page(photo.image)
    reading = recognise_board(rectified.board, rectified.cells, engine).reading
    read = tuple(v or 0 for row in reading.givens() for v in row)
    return read, tuple(v or 0 for row in puzzle.givens for v in row)
