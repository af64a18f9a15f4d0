"""Grids whose cell lines are dashed are read whole: every given, at its place."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.styles import DASHED_CELL_LINES, PrintStyle, random_puzzles, styled_page


@pytest.mark.parametrize(
    "style",
    [
        DASHED_CELL_LINES,
        PrintStyle(thin_pt=0.5, thick_pt=1.5, dashed=True, font="DejaVuSans-Oblique.ttf"),
    ],
)
def test_dashed_grids_are_read_right(engine, style: PrintStyle) -> None:
    # Before: no grid was found on the page (its dashed lines were opened out with the digits).
    rng = np.random.default_rng(11)
    page = styled_page(random_puzzles(GridShape(3, 3), 2, rng), style, dpi=150, columns=2, rng=rng)
    boards = rectify_page(page.image)
    assert len(boards) == 2
    for found, truth in zip(boards, page.grids, strict=True):
        reading = recognise_board(found.board, found.cells, engine).reading
        assert reading.shape == GridShape(3, 3)
        assert [c.digit or 0 for c in reading.cells] == [
            v for row in truth.generated.puzzle.givens for v in row
        ]
