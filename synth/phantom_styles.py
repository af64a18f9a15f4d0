"""Phone photos of printed puzzles in the conditions that make empty cells look inked, with
truth: each draws one 9x9 with about a third of its cells given and photographs it.

- ``soft_shadow``: light falling off steeply across the grid, a smooth gradient;
- ``hard_shadow``: a sharp-edged shadow (a hand, a phone) crossing cells;
- ``misregistered``: each inner grid line printed a few pixels off its even place, so that a
  lattice of evenly spaced lines leaves line remnants inside cells;
- ``show_through``: the back page's print (grid and digits) showing through, mirrored;
- ``show_through_sweep``: the back page's print showing through at any offset up to most of a
  cell, turned a little, faint to dark, sharp to soft, in full light or dim;
- ``thick_pen``: heavy type and heavy lines;
- ``thin_pen``: hairline type and hairline lines;
- ``low_light``: a dim, low-contrast shot with strong sensor noise and heavy JPEG;
- ``newsprint``: grey, fibrous paper and ink that is not quite black;
- ``halftone``: print and a light tint screened into dots, photographed so the screen beats
  against the sensor (moire);
- ``screen_sweep``: a tint screened at a coarse pitch, at any angle, light to
  heavy;
- ``coarse_screen_sweep``: a tint screened coarser than ``screen_sweep``'s, at any angle, light
  to heavy, in full light or dim, with sensor noise and heavy JPEG;
- ``noise_sweep``: sensor noise from slight to heavy, in full light or dim, with a shadow or
  none, through heavy JPEG;
- ``shadow_noise_sweep``: a sharp-edged shadow across the grid, always, in full light, with
  sensor noise from slight to heavy through heavy JPEG.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth import degrade
from sudoku_batch.synth.grid_image import PAPER_RGB, RenderedGrid, render_grid
from sudoku_batch.synth.hard_photos import HardPhoto
from sudoku_batch.synth.photo import Photo, PhotoStyle, photograph
from sudoku_batch.synth.puzzles import random_puzzle

CELL_PX = 48
HOLES = (48, 58)  # of 81 cells: most cells are empty, where a phantom can appear
SHARP = PhotoStyle(max_blur_sigma=0.6, max_noise_sigma=3.0, jpeg_quality=(75, 95))
SOFT_SHADOW_GAIN = (0.3, 0.55)  # the darkest corner's light, of the brightest one's
HARD_SHADOW_GAIN = (0.4, 0.65)  # inside the shadow
MISREGISTRATION_CELLS = (0.05, 0.12)  # how far an inner line strays, in cells
SHOW_THROUGH_SHARE = (0.2, 0.35)  # of the back page's print contrast
SWEEP_BACK_SHIFT_CELLS = 0.7  # the back page's grid off the front one's, either way
SWEEP_BACK_TURN_DEG = 2.0  # the back page printed a little turned against the front
SWEEP_SHOW_THROUGH_SHARE = (0.15, 0.45)
SWEEP_BACK_BLUR_PX = (0.6, 1.8)
THICK_LINES_PX = (3, 7)  # cell and box lines at 48 px cells
LOW_LIGHT_GAIN = (0.35, 0.55)
LOW_LIGHT_NOISE = (5.0, 9.0)
LOW_LIGHT_JPEG = (25, 45)
NEWSPRINT_PAPER = (165, 200)  # grey, a little yellow
NEWSPRINT_INK = (50, 80)
HALFTONE_PERIOD_PX = (2.0, 3.5)  # the dot pitch at 48 px cells: 65-100 lpi in an 8 mm cell
HALFTONE_TINT = (0.1, 0.25)  # a light grey screen over the whole grid, as ink coverage
SWEEP_PERIOD_PX = (3.0, 6.0)  # coarser than halftone's
SWEEP_TINT = (0.1, 0.4)
SWEEP_NOISE = (3.0, 14.0)
SWEEP_GAIN = (0.3, 1.0)
SWEEP_JPEG = (25, 60)
COARSE_SWEEP_PERIOD_PX = (5.0, 9.0)  # a newspaper's tint screen at 48 px cells


def soft_shadow(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    photo = photograph(grid.image, grid.corners, rng, SHARP)
    h, w = photo.image.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    xs, ys = np.meshgrid(np.linspace(-1, 1, w), np.linspace(-1, 1, h))
    ramp = (xs * np.cos(angle) + ys * np.sin(angle) + 1.5) / 3.0  # 0..1 across the frame
    gain = rng.uniform(*SOFT_SHADOW_GAIN) + (1 - rng.uniform(*SOFT_SHADOW_GAIN)) * ramp
    return framed(grid, photo.corners, lit(photo.image, gain))


def hard_shadow(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    photo = photograph(grid.image, grid.corners, rng, SHARP)
    return framed(grid, photo.corners, lit(photo.image, shadow_gain(photo, rng)))


def shadow_gain(photo: Photo, rng: np.random.Generator) -> np.ndarray:
    """Per pixel of ``photo``, the light left by a sharp-edged shadow from one side of the
    grid into it (HARD_SHADOW_GAIN inside), its edge a pixel or two of blur."""
    h, w = photo.image.shape[:2]
    centre = photo.corners.mean(axis=0)
    side = float(np.linalg.norm(photo.corners[1] - photo.corners[0]))
    angle = rng.uniform(0, 2 * np.pi)
    reach = rng.uniform(0.1, 0.45) * side
    direction = np.array([np.cos(angle), np.sin(angle)])
    across = np.array([-direction[1], direction[0]])
    edge = centre + direction * reach
    far = centre + direction * 3 * side
    points = np.array(
        [
            edge + across * rng.uniform(0.3, 2.0) * side,
            edge - across * rng.uniform(0.3, 2.0) * side,
            far - across * 3 * side,
            far + across * 3 * side,
        ],
        np.int32,
    )
    mask = np.zeros((h, w), np.float32)
    cv2.fillPoly(mask, [points], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.5, 2.0))
    return 1.0 - (1.0 - rng.uniform(*HARD_SHADOW_GAIN)) * mask


def misregistered(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng, line_rgb=PAPER_RGB)  # digits only; the lines are drawn below
    image = grid.image.copy()
    n = grid.puzzle.size
    (lo, _), (hi, _) = grid.corners[0], grid.corners[1]
    cell = (hi - lo) / n
    for i in range(n + 1):
        half = (5 if i % 3 == 0 else 1) // 2
        for vertical in (True, False):
            stray = 0.0 if i in (0, n) else rng.uniform(*MISREGISTRATION_CELLS)
            at = int(round(lo + (i + stray * rng.choice((-1, 1))) * cell))
            across, along = slice(at - half, at + half + 1), slice(int(lo) - 2, int(hi) + 3)
            image[(along, across) if vertical else (across, along)] = 20
    photo = photograph(image, grid.corners, rng, SHARP)
    return framed(grid, photo.corners, photo.image)


def show_through(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    back = puzzle_grid(rng).image[:, ::-1]
    shift = rng.integers(-CELL_PX // 2, CELL_PX // 2 + 1, 2)
    back = np.roll(back, tuple(int(s) for s in shift), axis=(0, 1))
    back = cv2.GaussianBlur(back, (0, 0), 1.0)  # seen through the paper, a little soft
    share = rng.uniform(*SHOW_THROUGH_SHARE)
    faint = (255 - share * (255 - back.astype(np.float32))).astype(np.uint8)
    photo = photograph(np.minimum(grid.image, faint), grid.corners, rng, SHARP)
    return framed(grid, photo.corners, photo.image)


def show_through_sweep(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    back = puzzle_grid(rng).image[:, ::-1]
    h, w = back.shape[:2]
    shift = rng.uniform(-SWEEP_BACK_SHIFT_CELLS, SWEEP_BACK_SHIFT_CELLS, 2) * CELL_PX
    turn = rng.uniform(-SWEEP_BACK_TURN_DEG, SWEEP_BACK_TURN_DEG)
    moved = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
    moved[:, 2] += shift
    back = cv2.warpAffine(back, moved, (w, h), borderValue=(255, 255, 255))
    back = cv2.GaussianBlur(back, (0, 0), rng.uniform(*SWEEP_BACK_BLUR_PX))
    share = rng.uniform(*SWEEP_SHOW_THROUGH_SHARE)
    faint = (255 - share * (255 - back.astype(np.float32))).astype(np.uint8)
    photo = photograph(np.minimum(grid.image, faint), grid.corners, rng, SHARP)
    image = lit(photo.image, np.full(photo.image.shape[:2], rng.uniform(*SWEEP_GAIN)))
    return framed(grid, photo.corners, image)


def thick_pen(rng: np.random.Generator) -> HardPhoto:
    thin = int(rng.integers(THICK_LINES_PX[0], THICK_LINES_PX[1] - 1)) | 1
    grid = puzzle_grid(
        rng, font="DejaVuSans-Bold.ttf", thin_px=thin, thick_px=THICK_LINES_PX[1] + 2
    )
    photo = photograph(grid.image, grid.corners, rng)
    return framed(grid, photo.corners, photo.image)


def thin_pen(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng, font="DejaVuSans-ExtraLight.ttf", thin_px=1, thick_px=1)
    photo = photograph(grid.image, grid.corners, rng, SHARP)
    return framed(grid, photo.corners, photo.image)


def low_light(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    # Washed-out print: ink at half to two thirds of the paper's contrast.
    faded = 255 - rng.uniform(0.5, 0.7) * (255 - grid.image.astype(np.float32))
    style = PhotoStyle(max_blur_sigma=1.0, max_noise_sigma=0.0, jpeg_quality=(90, 95))
    photo = photograph(faded.astype(np.uint8), grid.corners, rng, style)
    image = (photo.image * rng.uniform(*LOW_LIGHT_GAIN)).astype(np.uint8)
    image = degrade.sensor_noise(image, rng, rng.uniform(*LOW_LIGHT_NOISE))
    image = degrade.jpeg_roundtrip(image, int(rng.integers(*LOW_LIGHT_JPEG)))
    return framed(grid, photo.corners, image)


def newsprint(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng, font="DejaVuSerif.ttf")
    paper = rng.uniform(*NEWSPRINT_PAPER)
    ink = rng.uniform(*NEWSPRINT_INK)
    darkness = 1.0 - grid.image.astype(np.float32) / 255.0
    h, w = darkness.shape[:2]
    # Fibres: noise stretched along the paper's grain, a few grey levels deep.
    fibres = cv2.resize(rng.normal(0, 6, (h // 6 + 1, w // 2 + 1)).astype(np.float32), (w, h))
    page = paper + fibres[..., None] - darkness * (paper - ink)
    page = page * np.array([0.93, 0.98, 1.0], np.float32)  # yellowish
    page = np.clip(page, 0, 255).astype(np.uint8)
    photo = photograph(page, grid.corners, rng, SHARP)
    return framed(grid, photo.corners, photo.image)


def halftone(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    page = halftone_page(grid, rng, HALFTONE_PERIOD_PX, HALFTONE_TINT)
    style = PhotoStyle(max_blur_sigma=0.8, max_noise_sigma=3.0, jpeg_quality=(70, 90))
    photo = photograph(page, grid.corners, rng, style)
    return framed(grid, photo.corners, photo.image)


def screen_sweep(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    angle = rng.uniform(0, 90)
    page = halftone_page(grid, rng, SWEEP_PERIOD_PX, SWEEP_TINT, angle)
    style = PhotoStyle(max_blur_sigma=0.8, max_noise_sigma=3.0, jpeg_quality=(70, 90))
    photo = photograph(page, grid.corners, rng, style)
    return framed(grid, photo.corners, photo.image)


def coarse_screen_sweep(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    page = halftone_page(grid, rng, COARSE_SWEEP_PERIOD_PX, SWEEP_TINT, rng.uniform(0, 90))
    style = PhotoStyle(max_blur_sigma=0.8, max_noise_sigma=3.0, jpeg_quality=(70, 90))
    photo = photograph(page, grid.corners, rng, style)
    image = lit(photo.image, np.full(photo.image.shape[:2], rng.uniform(*SWEEP_GAIN)))
    image = degrade.sensor_noise(image, rng, rng.uniform(*SWEEP_NOISE))
    image = degrade.jpeg_roundtrip(image, int(rng.integers(*SWEEP_JPEG)))
    return framed(grid, photo.corners, image)


def noise_sweep(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    photo = photograph(grid.image, grid.corners, rng, SHARP)
    gain = np.full(photo.image.shape[:2], rng.uniform(*SWEEP_GAIN), np.float32)
    if rng.random() < 0.5:
        gain *= shadow_gain(photo, rng)
    image = lit(photo.image, gain)
    image = degrade.sensor_noise(image, rng, rng.uniform(*SWEEP_NOISE))
    image = degrade.jpeg_roundtrip(image, int(rng.integers(*SWEEP_JPEG)))
    return framed(grid, photo.corners, image)


def shadow_noise_sweep(rng: np.random.Generator) -> HardPhoto:
    grid = puzzle_grid(rng)
    photo = photograph(grid.image, grid.corners, rng, SHARP)
    image = lit(photo.image, shadow_gain(photo, rng))
    image = degrade.sensor_noise(image, rng, rng.uniform(*SWEEP_NOISE))
    image = degrade.jpeg_roundtrip(image, int(rng.integers(*SWEEP_JPEG)))
    return framed(grid, photo.corners, image)


def halftone_page(
    grid: RenderedGrid,
    rng: np.random.Generator,
    period_px: tuple[float, float],
    tint: tuple[float, float],
    angle_deg: float = 45.0,
) -> np.ndarray:
    """``grid`` printed through an amplitude-modulated screen at ``angle_deg`` (its dot pitch
    in ``period_px``), with a light ``tint`` (ink coverage) over the whole grid."""
    darkness = 1.0 - grid.image[..., 0].astype(np.float32) / 255.0
    # A light tint over the grid, as newspapers shade puzzles.
    (lo, _), (hi, _) = grid.corners[0], grid.corners[2]
    inside = np.zeros_like(darkness)
    inside[int(lo) : int(hi) + 1, int(lo) : int(hi) + 1] = 1.0
    coverage = np.maximum(darkness, rng.uniform(*tint) * inside)
    # A pixel is inked where the dot of its coverage reaches it.
    h, w = darkness.shape
    period = rng.uniform(*period_px)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    turn = np.deg2rad(angle_deg)
    u = xs * np.cos(turn) + ys * np.sin(turn)
    v = -xs * np.sin(turn) + ys * np.cos(turn)
    screen = (np.cos(2 * np.pi * u / period) + np.cos(2 * np.pi * v / period) + 2) / 4
    page = np.where(screen < coverage, 25, 250).astype(np.uint8)
    return cv2.cvtColor(page, cv2.COLOR_GRAY2BGR)


STYLES: dict[str, Callable[[np.random.Generator], HardPhoto]] = {
    "soft_shadow": soft_shadow,
    "hard_shadow": hard_shadow,
    "misregistered": misregistered,
    "show_through": show_through,
    "show_through_sweep": show_through_sweep,
    "thick_pen": thick_pen,
    "thin_pen": thin_pen,
    "low_light": low_light,
    "newsprint": newsprint,
    "halftone": halftone,
    "screen_sweep": screen_sweep,
    "coarse_screen_sweep": coarse_screen_sweep,
    "noise_sweep": noise_sweep,
    "shadow_noise_sweep": shadow_noise_sweep,
}


def puzzle_grid(rng: np.random.Generator, **drawing: object) -> RenderedGrid:
    puzzle = random_puzzle(GridShape(3, 3), rng, holes=int(rng.integers(*HOLES))).puzzle
    return render_grid(puzzle, rng=rng, **{"cell_px": CELL_PX, **drawing})


def lit(image: np.ndarray, gain: np.ndarray) -> np.ndarray:
    return np.clip(image * gain[..., None], 0, 255).astype(np.uint8)


def framed(grid: RenderedGrid, corners: np.ndarray, image: np.ndarray) -> HardPhoto:
    return HardPhoto(image, (grid.puzzle,), (corners,))
