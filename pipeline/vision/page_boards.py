"""Every board on a page found, rectified and its cells sorted: the vision half of a page."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from sudoku_batch.pipeline.board import RectifiedBoard
from sudoku_batch.pipeline.errors import LatticeNotFound, NoGridFound
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.rectify import rectify_board


def rectify_page(pixels: np.ndarray, damaged: str | None = None) -> list[RectifiedBoard]:
    """Every Sudoku board on a page, rectified with its lattice and its cells sorted, in
    reading order; each board's location knows its page's size and ``damaged``, the
    decoder's warning if the page's file is damaged.

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
    page_size = (pixels.shape[0], pixels.shape[1])
    for location in locations:
        location = replace(location, page_size=page_size, page_damage=damaged)
        try:
            board = rectify_board(pixels, location)
            boards.append(RectifiedBoard(board, tuple(classify_cells(board))))
        except LatticeNotFound as failure:
            failures.append(failure)
    if not boards:
        raise failures[0]
    return boards
