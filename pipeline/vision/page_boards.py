"""Every board on a page found, rectified and its cells sorted: the vision half of a page."""

from __future__ import annotations

import numpy as np

from pipeline.board import RectifiedBoard
from pipeline.errors import LatticeNotFound, NoGridFound
from pipeline.vision.cells import classify_cells
from pipeline.vision.find_boards import find_boards
from pipeline.vision.rectify import rectify_board


def rectify_page(pixels: np.ndarray) -> list[RectifiedBoard]:
    """Every Sudoku board on a page, rectified with its lattice and its cells sorted, in
    reading order.

    A candidate whose lattice cannot be measured is dropped (the locator errs towards
    candidates); a page with no board at all raises, so the page is recorded with the reason.
    """
    locations = find_boards(pixels)
    if not locations:
        raise NoGridFound(
            "no Sudoku grid was found on this page; if there is one, check that the whole "
            "grid is in frame and in focus"
        )
    boards: list[RectifiedBoard] = []
    failures: list[LatticeNotFound] = []
    for location in locations:
        try:
            board = rectify_board(pixels, location)
            boards.append(RectifiedBoard(board, tuple(classify_cells(board))))
        except LatticeNotFound as failure:
            failures.append(failure)
    if not boards:
        raise failures[0]
    return boards
