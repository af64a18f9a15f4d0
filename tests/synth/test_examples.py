import json
from pathlib import Path

import cv2
import pypdfium2 as pdfium

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.synth.unique import count_solutions
from tests.synth.checks import assert_corners_inside, assert_givens_fit, assert_valid_solution

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_examples_match_their_truth_and_are_unique():
    truth = json.loads((EXAMPLES / "truth.json").read_text())
    photo = cv2.imread(str(EXAMPLES / "photo.jpg"))
    assert photo.shape[:2] == (
        truth["photo.jpg"]["pages"][0]["height"],
        truth["photo.jpg"]["pages"][0]["width"],
    )
    book = truth["book.pdf"]
    assert len(pdfium.PdfDocument(EXAMPLES / "book.pdf")) == len(book["pages"]) == 2
    assert [len(p["grids"]) for p in book["pages"]] == [1, 2]
    for name in ("photo.jpg", "book.pdf"):
        assert (EXAMPLES / name).stat().st_size < 300_000
        for page in truth[name]["pages"]:
            for grid in page["grids"]:
                shape = GridShape(*grid["box"])
                assert_valid_solution(shape, grid["solution"])
                assert_givens_fit(grid["givens"], grid["solution"])
                assert_corners_inside(grid["corners"], page["width"], page["height"])
                assert count_solutions(Puzzle.from_rows(grid["givens"], shape)) == 1
