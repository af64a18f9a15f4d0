"""A printed puzzle page carries no solver's marks: on every print style, shaded boxes too,
each marked cell stays a printed given (pipeline.recognise.ink_kinds)."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import InkKind
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.styles import HAIRLINE_FONT_TOP, random_puzzles, styled_page


@pytest.mark.parametrize("seed", [2, 3])
def test_printed_givens_on_shaded_boxes_stay_givens(engine, seed: int) -> None:
    # Faint digits set against the top of hairline cells in alternate grey boxes: the shading's
    # edges are traced as lines, so the board is straightened unevenly around them.
    rng = np.random.default_rng(seed)
    puzzles = random_puzzles(GridShape(3, 3), 4, rng)
    page = styled_page(puzzles, HAIRLINE_FONT_TOP, dpi=150, columns=2, rng=rng)
    boards = rectify_page(page.image)
    assert len(boards) == 4
    for rectified in boards:
        reading = recognise_board(rectified.board, rectified.cells, engine).reading
        marks = [
            (c.row, c.col, c.ink)
            for c in reading.cells
            if c.ink not in (InkKind.GIVEN, InkKind.EMPTY)
        ]
        assert not marks
