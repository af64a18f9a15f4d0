"""Regions and diagonals read from the image: synthetic jigsaw and diagonal photos and book
pages (plain, on coloured or grey fills) read with the right regions, variant and givens;
classic photos keep reading as classic."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.recognition import DATASET, load_samples, read_photo
from sudoku_batch.pipeline.geometry import box_regions
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.pipeline.vision.regions import read_regions
from sudoku_batch.synth.grid_image import PAPER_RGB
from sudoku_batch.synth.variant_images import (
    VariantStyle,
    random_variant,
    regions_of,
    render_variant,
    variant_page,
    variant_photo,
)


def _regions(shape: GridShape):
    return shape.regions or box_regions(shape.box_rows, shape.box_cols)


@pytest.fixture(scope="module")
def engine():
    return make_engine("ppocr-onnx")


def _photo(variant: str, fills: str, seed: int):
    rng = np.random.default_rng(seed)
    return variant_photo(random_variant(rng, variant), rng, fills=fills)


def _page(variant: str, fills: str, seed: int):
    rng = np.random.default_rng(seed)
    return variant_page(
        [random_variant(rng, variant), random_variant(rng, variant)], rng, fills=fills
    )


@pytest.mark.parametrize(
    ("make", "variant", "fills"),
    [
        (_photo, "jigsaw", "colour"),
        (_photo, "jigsaw+diagonal", "none"),
        (_page, "jigsaw", "grey"),
        (_page, "diagonal", "colour"),
    ],
)
def test_variant_grids_are_read_with_their_regions_and_givens(engine, make, variant, fills) -> None:
    image = make(variant, fills, 21)

    boards = rectify_page(image.image)

    assert len(boards) == len(image.grids)
    for found, truth in zip(boards, image.truth(), strict=True):
        reading = recognise_board(found.board, found.cells, engine).reading
        assert reading.shape.variant == truth["variant"] == variant
        assert _regions(reading.shape) == tuple(tuple(row) for row in truth["regions"])
        assert [list(row) for row in reading.givens()] == truth["givens"]
        assert reading.regions_certainty >= 0.5


def test_a_region_border_printed_light_is_found_from_the_next_likeliest_partition() -> None:
    rng = np.random.default_rng(3)
    puzzle = random_variant(rng, "jigsaw")
    style = VariantStyle(thin_px=1, thick_px=7)
    image, corners = render_variant(puzzle, style, cell_px=48)
    regions = regions_of(puzzle)
    # The first vertical region border inside the board, drawn as a cell line.
    r, c = next((r, c) for r in range(9) for c in range(1, 9) if regions[r][c - 1] != regions[r][c])
    x = int(corners[0, 0]) + 48 * c
    top = int(corners[0, 1]) + 48 * r
    image[top + 6 : top + 43, x - 3 : x + 4] = PAPER_RGB[::-1]
    image[top + 6 : top + 43, x] = 20

    (found,) = rectify_page(image)
    read = read_regions(found.board)

    assert read.regions == regions
    assert read.variant == "jigsaw"
    assert read.certainty < 1.0


def test_plain_classic_grids_on_fills_read_as_classic() -> None:
    image = _photo("classic", "colour", 5)
    (found,) = rectify_page(image.image)
    read = read_regions(found.board)
    assert read.variant == "classic"
    assert read.regions == tuple(tuple(row) for row in image.truth()[0]["regions"])


@pytest.mark.shared_data
def test_real_classic_photos_read_as_classic(shared_data: Path) -> None:
    samples = {s.name: s for s in load_samples(shared_data / DATASET)}
    for name in ("image1", "image189", "image1067", "image1003"):
        (found,) = rectify_page(read_photo(samples[name].path))
        read = read_regions(found.board)
        assert read.variant == "classic", name
        assert read.certainty >= 0.5, name


def test_a_drawn_diagonal_is_no_given_nor_part_of_one(engine) -> None:
    rng = np.random.default_rng(8)
    puzzle = random_variant(rng, "diagonal")
    style = VariantStyle(thin_px=3, thick_px=7, diagonal="lines")
    image, _ = render_variant(puzzle, style, rng=rng)
    image = cv2.GaussianBlur(image, (0, 0), 1.0)

    (found,) = rectify_page(image)
    reading = recognise_board(found.board, found.cells, engine).reading

    givens = puzzle.puzzle.givens
    read_given = {(c.row, c.col) for c in found.cells if c.kind.value == "given"}
    assert read_given == {(r, c) for r in range(9) for c in range(9) if givens[r][c]}
    assert reading.givens() == givens
    assert reading.shape.variant == "diagonal"


def test_regions_printed_by_their_fills_alone_are_read_from_the_fills() -> None:
    rng = np.random.default_rng(2)
    image = variant_photo(random_variant(rng, "jigsaw"), rng, fills="colour", region_lines=False)

    found = rectify_page(image.image)[0]
    read = read_regions(found.board)

    assert read.variant == "jigsaw"
    assert read.regions == tuple(tuple(row) for row in image.truth()[0]["regions"])
