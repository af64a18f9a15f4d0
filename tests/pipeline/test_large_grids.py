"""A 25x25 grid printed large enough is found, measured and read, in either printed convention
(10..25 as numbers, or A..P as letters)."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.puzzles import random_puzzle


@pytest.fixture(scope="module")
def engine():
    return make_engine("ppocr-onnx")


@pytest.mark.parametrize("labels", ["numbers", "letters"])
def test_a_25x25_grid_is_read_whole(engine, labels: str) -> None:
    rng = np.random.default_rng(5)
    generated = random_puzzle(GridShape(5, 5), rng, holes=375)
    image = render_grid(generated.puzzle, cell_px=44, labels=labels, rng=rng).image

    (found,) = rectify_page(image)
    recognised = recognise_board(found.board, found.cells, engine)

    assert recognised.board.shape == GridShape(5, 5)
    assert recognised.reading.givens() == generated.puzzle.givens
