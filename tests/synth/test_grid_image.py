import numpy as np
import pytest

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.synth.fonts import available_fonts
from sudoku_batch.synth.grid_image import SHADE_RGB, label_text, render_grid
from sudoku_batch.synth.puzzles import random_puzzle
from tests.synth.checks import assert_corners_inside


def gray(image: np.ndarray, x: float, y: float) -> int:
    return int(image[int(round(y)), int(round(x))].mean())


@pytest.mark.parametrize("shape", [GridShape(3, 3), GridShape(2, 3), GridShape(4, 4)], ids=str)
def test_truth_matches_pixels(shape):
    rng = np.random.default_rng(11)
    generated = random_puzzle(shape, rng, holes=shape.size**2 // 2, blocked=2)
    shaded = frozenset({(0, 0), (1, 1), (2, 2)})
    grid = render_grid(generated.puzzle, cell_px=40, shaded=shaded, labels="letters", rng=rng)
    height, width = grid.image.shape[:2]
    assert grid.image.dtype == np.uint8 and grid.image.shape[2] == 3
    assert_corners_inside(grid.corners, width, height)
    for x, y in grid.corners:  # corners sit on the printed border
        assert gray(grid.image, x, y) < 60
    x0, y0 = grid.corners[0]
    for r, row in enumerate(grid.kinds):
        for c, kind in enumerate(row):
            cx, cy = x0 + (c + 0.5) * 40, y0 + (r + 0.5) * 40
            crop = grid.image[int(cy) - 15 : int(cy) + 15, int(cx) - 15 : int(cx) + 15]
            if kind is CellKind.BLOCKED:
                assert crop.max() < 60
            elif kind is CellKind.GIVEN:
                assert crop.min() < 80 and crop.max() > 150
            else:
                expected = SHADE_RGB[0] if (r, c) in shaded else 255
                assert abs(int(crop.min()) - expected) < 5


def test_rendering_is_deterministic_by_seed():
    generated = random_puzzle(GridShape(3, 3), np.random.default_rng(1), holes=40)
    a = render_grid(generated.puzzle, rng=np.random.default_rng(7))
    b = render_grid(generated.puzzle, rng=np.random.default_rng(7))
    assert (a.image == b.image).all()


def test_every_installed_font_draws_every_label():
    puzzle = Puzzle.from_rows([[v for v in range(1, 17)]] + [[0] * 16] * 15)
    for path in available_fonts():
        for labels in ("numbers", "letters"):
            grid = render_grid(puzzle, cell_px=24, font=path.name, labels=labels)
            assert grid.font == path.name
            assert grid.image[:, :, 0].min() < 100


def test_labels_above_nine():
    assert label_text(9, "letters") == "9"
    assert label_text(10, "letters") == "A"
    assert label_text(16, "letters") == "G"
    assert label_text(16, "numbers") == "16"
