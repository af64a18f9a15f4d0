"""Turning a rectified board by quarter turns, keeping its lattice and page warp true."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sudoku_batch.pipeline.board import BoardImage, Lattice
from sudoku_batch.pipeline.grid import GridShape


def turn_board(board: BoardImage, quarter_turns: int) -> BoardImage:
    """The board turned ``quarter_turns`` times counter-clockwise (as ``np.rot90``).

    Its homography still maps page pixels to (turned) board pixels, its corners still run TL,
    TR, BR, BL as seen on the turned board, and its lattice and box shape follow the turn.
    """
    for _ in range(quarter_turns % 4):
        board = _turn_once(board)
    return board


def turn_cell(row: int, col: int, size: int, quarter_turns: int) -> tuple[int, int]:
    """Where cell (row, col) of an N x N board lands after the board's counter-clockwise turns."""
    for _ in range(quarter_turns % 4):
        row, col = size - 1 - col, row
    return row, col


def _turn_once(board: BoardImage) -> BoardImage:
    width = board.pixels.shape[1]
    # np.rot90 sends the pixel at (x, y) to (y, width - 1 - x), in pixel-centre coordinates.
    turn = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, width - 1.0], [0.0, 0.0, 1.0]])
    lattice = board.lattice
    # Printed box lines turn with the board; a shape that was only assumed (no thicker lines
    # seen) stays the conventional one.
    shape = (
        GridShape(lattice.shape.box_cols, lattice.shape.box_rows)
        if lattice.box_lines
        else lattice.shape
    )
    turned_lattice = Lattice(
        shape,
        row_lines=tuple(width - 1.0 - x for x in reversed(lattice.col_lines)),
        col_lines=tuple(lattice.row_lines),
        box_lines=lattice.box_lines,
    )
    # The old top-right corner becomes the top-left one, and so on round.
    location = replace(board.location, corners=np.roll(board.location.corners, -1, axis=0))
    return BoardImage(
        location,
        np.ascontiguousarray(np.rot90(board.pixels)),
        turn @ board.homography,
        turned_lattice,
    )
