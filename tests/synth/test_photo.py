import numpy as np

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.photo import PhotoStyle, photograph
from sudoku_batch.synth.puzzles import random_puzzle
from tests.synth.checks import assert_corners_inside


def make_photo(seed: int, style: PhotoStyle | None = None):
    rng = np.random.default_rng(seed)
    grid = render_grid(random_puzzle(GridShape(3, 3), rng, holes=45).puzzle, rng=rng)
    return photograph(grid.image, grid.corners, rng, style or PhotoStyle())


def assert_corners_on_ink(photo) -> None:
    height, width = photo.image.shape[:2]
    assert_corners_inside(photo.corners, width, height)
    gray = photo.image.mean(axis=2)
    for x, y in photo.corners:
        x, y = int(round(x)), int(round(y))
        around = gray[max(0, y - 3) : y + 4, max(0, x - 3) : x + 4]
        assert around.min() < gray.mean() - 30, "no ink at a truth corner"


def test_corners_stay_on_the_border_inside_the_photo():
    for seed in range(6):
        style = PhotoStyle(red_ink=seed % 2 == 1, quarter_turns=seed >= 3)
        photo = make_photo(seed, style)
        assert_corners_on_ink(photo)


def test_photo_is_deterministic_by_seed():
    a, b = make_photo(4), make_photo(4)
    assert (a.image == b.image).all() and (a.corners == b.corners).all()
    assert a.image.shape != make_photo(5).image.shape or (a.image != make_photo(5).image).any()


def test_a_curled_sheet_keeps_its_corners_on_the_border_and_bows_its_lines():
    for seed in range(3):
        photo = make_photo(seed, PhotoStyle(max_curl=0.05, max_tilt=0.0, max_rotation_deg=0.0))
        assert_corners_on_ink(photo)
        gray = photo.image.mean(axis=2)
        # The top border sags between its corners: its middle is inked below the straight
        # line joining them.
        (x0, y0), (x1, y1) = photo.corners[0], photo.corners[1]
        middle_x = int(round((x0 + x1) / 2))
        chord_y = (y0 + y1) / 2
        column = gray[:, middle_x]
        darkest_near = int(np.argmin(column[int(chord_y) - 5 : int(chord_y) + 60])) - 5
        assert darkest_near > 3
