"""A few real phone photos (shared/data/wichtounet-v2-train): a plain one, one in red ink, one
with yesterday's solution grid in frame, and one with a crossword and a solution grid."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.recognition import DATASET, corner_error, load_samples, read_photo
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.rectify import rectify_board

PHOTOS = ["image1", "image189", "image1067", "image1045"]


@pytest.mark.shared_data
@pytest.mark.parametrize("name", PHOTOS)
def test_the_puzzle_and_nothing_else_is_found_and_its_cells_sorted(
    shared_data: Path, name: str
) -> None:
    samples = {s.name: s for s in load_samples(shared_data / DATASET)}
    sample = samples[name]
    pixels = read_photo(sample.path)

    locations = find_boards(pixels)

    assert len(locations) == 1
    assert corner_error(locations[0].corners, sample.corners) < 0.03
    board = rectify_board(pixels, locations[0])
    assert board.shape.size == 9
    given = [c.kind is CellKind.GIVEN for c in classify_cells(board)]
    truth = [value != 0 for value in sample.givens]
    assert sum(g != t for g, t in zip(given, truth, strict=True)) <= 1
