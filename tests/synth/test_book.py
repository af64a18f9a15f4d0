import json

import numpy as np
import pypdfium2 as pdfium
import pytest

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth.book import main
from tests.synth.checks import (
    assert_corners_inside,
    assert_givens_fit,
    assert_valid_solution,
    cell_centres,
)


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    out = tmp_path_factory.mktemp("book")
    main([str(out), "--pages", "4", "--seed", "3"])
    return out


def test_truth_is_self_consistent(book):
    truth = json.loads((book / "truth.json").read_text())["book.pdf"]
    pdf = pdfium.PdfDocument(book / "book.pdf")
    assert len(pdf) == len(truth["pages"]) == 4
    for index, page in enumerate(truth["pages"]):
        assert page["page"] == index + 1
        assert 1 <= len(page["grids"]) <= 6
        pixels = np.asarray(pdf[index].render(scale=truth["dpi"] / 72).to_pil().convert("L"))
        assert abs(pixels.shape[1] - page["width"]) <= 1
        assert abs(pixels.shape[0] - page["height"]) <= 1
        for grid in page["grids"]:
            shape = GridShape(*grid["box"])
            assert shape.size == grid["size"] == len(grid["givens"])
            assert_valid_solution(shape, grid["solution"])
            assert_givens_fit(grid["givens"], grid["solution"])
            assert_corners_inside(grid["corners"], page["width"], page["height"])
            centres = cell_centres(np.array(grid["corners"]), shape.size)
            for r, row in enumerate(grid["givens"]):
                for c, value in enumerate(row):
                    x, y = centres[r, c].round().astype(int)
                    if value is None:
                        assert pixels[y, x] < 90, "blocked cell is not dark"
                    elif value == 0:
                        assert pixels[y - 1 : y + 2, x - 1 : x + 2].max() > 150


def test_grids_are_in_reading_order(book):
    truth = json.loads((book / "truth.json").read_text())["book.pdf"]
    for page in truth["pages"]:
        boxes = [np.array(g["corners"]) for g in page["grids"]]
        for before, after in zip(boxes, boxes[1:], strict=False):
            beside = after[:, 0].min() > before[:, 0].max()
            below = after[:, 1].min() > before[:, 1].max()
            assert beside or below


def test_book_is_deterministic_by_seed(book, tmp_path):
    main([str(tmp_path), "--pages", "4", "--seed", "3"])
    assert (tmp_path / "book.pdf").read_bytes() == (book / "book.pdf").read_bytes()
    assert (tmp_path / "truth.json").read_text() == (book / "truth.json").read_text()
