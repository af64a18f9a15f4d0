"""A digit printed on a coloured fill (a diagonal's or a region's tint) is print: its ink is
judged against the board's paper, not the fill around it, which would make black print look
coloured and so handwritten (synth.variant_images' pages and photos with colour fills)."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.variant_images import random_variant, variant_page, variant_photo

SEEDS = range(1, 7)


@pytest.fixture(scope="module")
def engine():
    return make_engine("ppocr-onnx")


def _page(variant: str, seed: int, fills: str = "colour"):
    rng = np.random.default_rng(seed)
    return variant_page(
        [random_variant(rng, variant), random_variant(rng, variant)], rng, fills=fills
    )


def _photo(variant: str, seed: int):
    rng = np.random.default_rng(seed)
    return variant_photo(random_variant(rng, variant), rng, fills="colour")


@pytest.mark.parametrize("make", [_page, _photo])
@pytest.mark.parametrize("variant", ["diagonal", "jigsaw"])
@pytest.mark.parametrize("seed", SEEDS)
def test_givens_printed_on_colour_fills_are_read_as_givens(engine, make, variant, seed) -> None:
    image = make(variant, seed)

    boards = rectify_page(image.image)

    assert len(boards) == len(image.grids)
    for found, truth in zip(boards, image.truth(), strict=True):
        reading = recognise_board(found.board, found.cells, engine).reading
        assert [list(row) for row in reading.givens()] == truth["givens"]


# Grey-fill diagonal pages whose X's lines run through printed digits (the seeds of
# bench.ink_kinds' fills).
CROSSED_SEEDS = range(1000, 1004)


@pytest.mark.parametrize("seed", CROSSED_SEEDS)
def test_givens_a_diagonal_line_runs_through_are_read_as_givens(engine, seed) -> None:
    # The line's ink is no glyph's: joined to a digit it would make it look handwritten.
    image = _page("diagonal", seed, fills="grey")

    boards = rectify_page(image.image)

    assert len(boards) == len(image.grids)
    for found, truth in zip(boards, image.truth(), strict=True):
        reading = recognise_board(found.board, found.cells, engine).reading
        assert reading.shape.diagonals
        assert [list(row) for row in reading.givens()] == truth["givens"]
