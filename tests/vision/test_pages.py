"""Pages with several grids, and things on a page that are not puzzles."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.rectify import rectify_board
from sudoku_batch.synth.book import random_book
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.puzzles import random_solution
from tests.vision.scenes import corner_error, rendered


@pytest.mark.parametrize("seed", [2, 3])
def test_book_pages_give_every_grid_in_reading_order_with_its_size_and_boxes(seed: int) -> None:
    for page in random_book(np.random.default_rng(seed), 3):
        pixels = cv2.imdecode(np.frombuffer(page.jpeg, np.uint8), cv2.IMREAD_COLOR)

        locations = find_boards(pixels)

        assert len(locations) == len(page.grids)
        for location, grid in zip(locations, page.grids, strict=True):
            assert corner_error(location.corners, grid.corners) < 0.03
            assert rectify_board(pixels, location).shape == grid.generated.puzzle.shape


def test_reading_order_is_rows_top_to_bottom_then_left_to_right() -> None:
    rng = np.random.default_rng(8)
    page = np.full((1300, 1300, 3), 255, np.uint8)
    # Two rows of two, the right-hand grid of each row set a little higher than the left.
    spots = [(60, 110), (700, 60), (60, 720), (700, 680)]
    shapes = [GridShape(3, 3), GridShape(2, 3), GridShape(2, 2), GridShape(3, 4)]
    truth = []
    for (x, y), shape in zip(spots, shapes, strict=True):
        grid = rendered(shape, rng, cell_px=450 // shape.size)
        h, w = grid.image.shape[:2]
        page[y : y + h, x : x + w] = grid.image
        truth.append(grid.corners + np.array([x, y], np.float32))

    locations = find_boards(page)

    assert len(locations) == 4
    for location, corners in zip(locations, truth, strict=True):
        assert corner_error(location.corners, corners) < 0.02


def _crossword(rng: np.random.Generator, n: int = 12, cell: int = 40) -> np.ndarray:
    """Uniform lines, a sixth of the cells black in a symmetric pattern, letters elsewhere."""
    side = n * cell + 41
    image = np.full((side, side, 3), 255, np.uint8)
    black = rng.random((n, n)) < 0.09
    black |= black[::-1, ::-1]  # crosswords are point-symmetric
    for r in range(n):
        for c in range(n):
            x, y = 20 + c * cell, 20 + r * cell
            if black[r, c]:
                cv2.rectangle(image, (x, y), (x + cell, y + cell), (0, 0, 0), -1)
            elif rng.random() < 0.5:
                letter = chr(ord("A") + int(rng.integers(26)))
                cv2.putText(image, letter, (x + 10, y + 30), cv2.FONT_HERSHEY_SIMPLEX, 0.9, 0, 2)
    for i in range(n + 1):
        p = 20 + i * cell
        cv2.line(image, (20, p), (20 + n * cell, p), (0, 0, 0), 2)
        cv2.line(image, (p, 20), (p, 20 + n * cell), (0, 0, 0), 2)
    return image


def test_a_crossword_is_not_a_board_but_the_sudoku_beside_it_is() -> None:
    rng = np.random.default_rng(4)
    crossword = _crossword(rng)
    sudoku = rendered(GridShape(3, 3), rng, cell_px=52)
    page = np.full((700, 1300, 3), 250, np.uint8)
    page[100 : 100 + crossword.shape[0], 40 : 40 + crossword.shape[1]] = crossword
    h, w = sudoku.image.shape[:2]
    page[100 : 100 + h, 700 : 700 + w] = sudoku.image

    locations = find_boards(page)

    assert len(locations) == 1
    assert corner_error(locations[0].corners, sudoku.corners + [700, 100]) < 0.02


def test_a_printed_solution_beside_its_puzzle_is_dropped() -> None:
    rng = np.random.default_rng(6)
    shape = GridShape(3, 3)
    puzzle = rendered(shape, rng, cell_px=56)
    full = Puzzle(shape, tuple(tuple(int(v) for v in row) for row in random_solution(shape, rng)))
    solution = render_grid(full, cell_px=36)
    page = np.full((800, 1000, 3), 250, np.uint8)
    h, w = puzzle.image.shape[:2]
    page[40 : 40 + h, 40 : 40 + w] = puzzle.image
    sh, sw = solution.image.shape[:2]
    page[400 : 400 + sh, 620 : 620 + sw] = solution.image

    locations = find_boards(page)

    assert len(locations) == 1
    assert corner_error(locations[0].corners, puzzle.corners + [40, 40]) < 0.02
