"""Warp a located board to a fronto-parallel square and measure its lattice."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, BoardLocation, Lattice
from sudoku_batch.pipeline.vision.lattice import detect_lattice
from sudoku_batch.pipeline.vision.straighten import straightened
from sudoku_batch.pipeline.vision.warp import warp

# The lattice is measured on a warp whose side follows the board's size on the page, within
# these bounds: at least 14 px per cell of a 25x25 grid, at most enough for 25 px cells.
SURVEY_SIDES = (360, 640)
# Final cell size bounds: below 40 px the OCR loses stroke detail, above 64 px it gains nothing
# and every later stage pays for the pixels.
MIN_CELL_PX = 40
MAX_CELL_PX = 64


def rectify_board(pixels: np.ndarray, location: BoardLocation) -> BoardImage:
    """The board warped to a square with cells of 40-64 px, its homography and its lattice;
    bent lines (a curled page) are straightened onto an even lattice.

    The lattice is the one ``find_boards`` surveyed at these corners when it comes with the
    location, else surveyed here. Raises ``LatticeNotFound`` when the warped region shows no
    Sudoku grid.
    """
    survey = location.survey or survey_board(pixels, location).lattice
    n = survey.shape.size
    # Keep the page's own detail, within the useful range of cell sizes.
    side = int(np.clip(_longest_side(location.corners), MIN_CELL_PX * n, MAX_CELL_PX * n))
    homography = square_homography(location.corners, side)
    board = warp(pixels, homography, (side, side))
    scale = side / survey_side(location.corners)
    lattice = Lattice(
        survey.shape,
        tuple(p * scale for p in survey.row_lines),
        tuple(p * scale for p in survey.col_lines),
        survey.box_lines,
    )
    bare = replace(location, survey=None)
    return straightened(pixels, BoardImage(bare, board, homography, lattice))


def survey_board(pixels: np.ndarray, location: BoardLocation) -> BoardImage:
    """The board warped at about its size on the page (within the survey bounds), with its
    lattice: enough to judge whether a region is a Sudoku and how full it is, quickly.

    Given a grey page (as ``find_boards`` does, for speed) the board's pixels are grey too.
    """
    side = survey_side(location.corners)
    homography = square_homography(location.corners, side)
    board = warp(pixels, homography, (side, side))
    return BoardImage(location, board, homography, detect_lattice(board))


def survey_side(corners: np.ndarray) -> int:
    """The side of a board's survey warp: about its size on the page, within bounds."""
    return int(np.clip(_longest_side(corners), *SURVEY_SIDES))


def square_homography(corners: np.ndarray, side: int) -> np.ndarray:
    """Page -> board homography sending corners TL, TR, BR, BL to a side x side square."""
    target = np.array([[0, 0], [side, 0], [side, side], [0, side]], dtype=np.float32)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), target).astype(np.float64)


def _longest_side(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).max())
