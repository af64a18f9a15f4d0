"""A page whose grain or tint passes for shaded boxes (newsprint) has its board's border
fitted as before shading was looked for: where the border cannot be traced on line strokes
alone it is traced on all ink, so no cell is cut across a line into a phantom given."""

from __future__ import annotations

import numpy as np

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.phantom_styles import STYLES

PHOTOS = 8


def test_newsprint_boards_have_no_phantom_givens() -> None:
    rng = np.random.default_rng(1)
    phantoms = []
    for k in range(PHOTOS):
        photo = STYLES["newsprint"](rng)
        (puzzle,) = photo.puzzles
        (board,) = rectify_page(photo.image)
        phantoms += [
            (k, cell.row, cell.col)
            for cell in board.cells
            if cell.kind is CellKind.GIVEN and not puzzle.givens[cell.row][cell.col]
        ]
    assert phantoms == []
