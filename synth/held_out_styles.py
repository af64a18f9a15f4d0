"""Phone photos of printed puzzles in phantom-prone conditions that the given/empty decision was
not tuned on, with truth: each combines or stretches the kinds of ``synth.phantom_styles`` past
their ranges, to tell whether a fix holds beyond the photos it was made for.

- ``coarse_halftone``: a heavier tint through a coarser screen than ``halftone``'s;
- ``halftone_in_shadow``: a halftone tint with a sharp-edged shadow across it;
- ``dim_shadow``: a dim, noisy, heavily compressed shot with a sharp-edged shadow across it;
- ``other_grid_through``: the back page's print showing through from a grid of another size
  and place, so its lines cross the cells anywhere;
- ``thick_pen_offset``: heavy type and lines, the inner lines each printed 2-4 px off;
- ``strong_show_through``: the back page's print of a grid like the front one's showing through
  darker and softer than ``show_through``'s, its border a quarter to most of a cell off.
- ``dim_coarse_screen``: a screen coarser than ``screen_sweep``'s, at any angle, shot in dim,
  noisy light through heavy JPEG;
- ``grainy_shadow``: sensor noise heavier than ``noise_sweep``'s, in full light, with a
  sharp-edged shadow across the grid.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from sudoku_batch.synth import degrade
from sudoku_batch.synth.hard_photos import HardPhoto
from sudoku_batch.synth.phantom_styles import (
    LOW_LIGHT_GAIN,
    LOW_LIGHT_JPEG,
    LOW_LIGHT_NOISE,
    SHARP,
    SHOW_THROUGH_SHARE,
    framed,
    halftone_page,
    lit,
    puzzle_grid,
    shadow_gain,
)
from sudoku_batch.synth.photo import PhotoStyle, photograph

COARSE_PERIOD_PX = (3.5, 5.0)
COARSE_TINT = (0.2, 0.35)
BACK_CELL_PX = (36, 60)  # the back page's grid: another book's
OFFSET_PX = (2, 4)  # how far each inner line of thick_pen_offset strays
BACK_SHIFT_CELLS = (0.25, 0.6)  # how far the back page's grid lies off the front one's
STRONG_SHOW_THROUGH_SHARE = (0.3, 0.45)  # of the back page's print contrast
DIM_SCREEN_PERIOD_PX = (6.0, 7.5)
GRAIN_NOISE = (14.0, 18.0)
HALFTONE_PHOTO = PhotoStyle(max_blur_sigma=0.8, max_noise_sigma=3.0, jpeg_quality=(70, 90))


def coarse_halftone(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    page = halftone_page(grid, rng, COARSE_PERIOD_PX, COARSE_TINT)
    photo = photograph(page, grid.corners, rng, HALFTONE_PHOTO)
    return framed(grid, photo.corners, photo.image)


def halftone_in_shadow(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    page = halftone_page(grid, rng, (2.0, 3.5), (0.1, 0.25))
    photo = photograph(page, grid.corners, rng, HALFTONE_PHOTO)
    return framed(grid, photo.corners, lit(photo.image, shadow_gain(photo, rng)))


def dim_shadow(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    photo = photograph(grid.image, grid.corners, rng, SHARP)
    gain = shadow_gain(photo, rng) * rng.uniform(*LOW_LIGHT_GAIN)
    image = degrade.sensor_noise(lit(photo.image, gain), rng, rng.uniform(*LOW_LIGHT_NOISE))
    image = degrade.jpeg_roundtrip(image, int(rng.integers(*LOW_LIGHT_JPEG)))
    return framed(grid, photo.corners, image)


def other_grid_through(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    back_cell = int(rng.integers(*BACK_CELL_PX))
    back = puzzle_grid(rng, cell_px=back_cell).image[:, ::-1]
    h, w = grid.image.shape[:2]
    # The back page is as large as the front one: its grid, of another size, cut or padded.
    sheet = np.full_like(grid.image, 255)
    bh, bw = min(h, back.shape[0]), min(w, back.shape[1])
    sheet[:bh, :bw] = back[:bh, :bw]
    back = sheet
    shift = rng.integers(0, back_cell, 2)
    back = np.roll(back, tuple(int(s) for s in shift), axis=(0, 1))
    back = cv2.GaussianBlur(back, (0, 0), 1.0)
    share = rng.uniform(*SHOW_THROUGH_SHARE)
    faint = (255 - share * (255 - back.astype(np.float32))).astype(np.uint8)
    photo = photograph(np.minimum(grid.image, faint), grid.corners, rng, SHARP)
    return framed(grid, photo.corners, photo.image)


def strong_show_through(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    back = puzzle_grid(rng).image[:, ::-1]
    cell = (grid.corners[1][0] - grid.corners[0][0]) / grid.puzzle.size
    shift = rng.uniform(*BACK_SHIFT_CELLS, 2) * cell * rng.choice((-1, 1), 2)
    back = np.roll(back, tuple(int(round(s)) for s in shift), axis=(0, 1))
    back = cv2.GaussianBlur(back, (0, 0), 1.5)  # a thicker sheet: softer
    share = rng.uniform(*STRONG_SHOW_THROUGH_SHARE)
    faint = (255 - share * (255 - back.astype(np.float32))).astype(np.uint8)
    photo = photograph(np.minimum(grid.image, faint), grid.corners, rng, SHARP)
    return framed(grid, photo.corners, photo.image)


def thick_pen_offset(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng, font="DejaVuSans-Bold.ttf", thin_px=5, thick_px=9)
    image = grid.image.copy()
    n = grid.puzzle.size
    (lo, _), (hi, _) = grid.corners[0], grid.corners[1]
    cell = (hi - lo) / n
    along = slice(int(lo) + 5, int(hi) - 4)
    inner = [(i, vertical) for i in range(1, n) for vertical in (True, False)]
    # The printed inner lines are painted out, then drawn again a few pixels off.
    for i, vertical in inner:
        half = (9 if i % 3 == 0 else 5) // 2
        at = int(round(lo + i * cell))
        old = slice(at - half, at + half + 1)
        image[(along, old) if vertical else (old, along)] = 255
    for i, vertical in inner:
        half = (9 if i % 3 == 0 else 5) // 2
        at = int(round(lo + i * cell))
        at += int(rng.integers(OFFSET_PX[0], OFFSET_PX[1] + 1)) * int(rng.choice((-1, 1)))
        new = slice(at - half, at + half + 1)
        image[(along, new) if vertical else (new, along)] = 20
    photo = photograph(image, grid.corners, rng)
    return framed(grid, photo.corners, photo.image)


def dim_coarse_screen(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    page = halftone_page(grid, rng, DIM_SCREEN_PERIOD_PX, COARSE_TINT, rng.uniform(0, 90))
    photo = photograph(page, grid.corners, rng, HALFTONE_PHOTO)
    image = lit(photo.image, np.full(photo.image.shape[:2], rng.uniform(*LOW_LIGHT_GAIN)))
    image = degrade.sensor_noise(image, rng, rng.uniform(*LOW_LIGHT_NOISE))
    image = degrade.jpeg_roundtrip(image, int(rng.integers(*LOW_LIGHT_JPEG)))
    return framed(grid, photo.corners, image)


def grainy_shadow(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    photo = photograph(grid.image, grid.corners, rng, SHARP)
    image = lit(photo.image, shadow_gain(photo, rng))
    image = degrade.sensor_noise(image, rng, rng.uniform(*GRAIN_NOISE))
    image = degrade.jpeg_roundtrip(image, int(rng.integers(*LOW_LIGHT_JPEG)))
    return framed(grid, photo.corners, image)


HELD_OUT_STYLES: dict[str, Callable[[np.random.Generator], HardPhoto]] = {
    "coarse_halftone": coarse_halftone,
    "halftone_in_shadow": halftone_in_shadow,
    "dim_shadow": dim_shadow,
    "other_grid_through": other_grid_through,
    "thick_pen_offset": thick_pen_offset,
    "strong_show_through": strong_show_through,
    "dim_coarse_screen": dim_coarse_screen,
    "grainy_shadow": grainy_shadow,
}
