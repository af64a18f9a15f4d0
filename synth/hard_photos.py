"""Photos and pages of the kinds grid finding failed on in held-out sets, with truth.

- ``low_res_blur``: a phone photo saved at 640x480 and strongly blurred;
- ``show_through``: a sharp photo of thin paper, the other side's grid showing through faintly,
  mirrored;
- ``edge``: a photo framed so tightly that the grid touches the image's edge;
- ``touching``: a page of grids printed up to 2 mm apart, photographed;
- ``thick_border``: a grid whose outer border prints several times as heavy as its box lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from pipeline.grid import GridShape, Puzzle
from synth import degrade
from synth.grid_image import render_grid
from synth.photo import PhotoStyle, photograph
from synth.puzzles import GeneratedPuzzle, random_puzzle
from synth.styles import PrintStyle, styled_page

LOW_RES_SIZE = (640, 480)
LOW_RES_BLUR_SIGMA = (1.5, 2.5)  # at 640x480: a grid's thin lines smear over 3-5 pixels
SHOW_THROUGH_SHARE = (0.12, 0.25)  # of the other side's print contrast
TOUCHING_GAP_MM = (0.0, 2.0)  # between neighbouring grids' borders (nearly touching)
THICK_BORDER_CELLS = (0.15, 0.3)  # the outer border's width, in cells
SHARP = PhotoStyle(max_blur_sigma=0.4, max_noise_sigma=3.0, jpeg_quality=(80, 95))


@dataclass(frozen=True)
class HardPhoto:
    """An image and the true grids in it: each one's puzzle and corners (TL, TR, BR, BL)."""

    image: np.ndarray = field(repr=False)
    puzzles: tuple[Puzzle, ...]
    corners: tuple[np.ndarray, ...] = field(repr=False)


def low_res_blur(rng: np.random.Generator) -> HardPhoto:
    puzzle = _puzzle(rng)
    grid = render_grid(puzzle, cell_px=48, rng=rng)
    photo = photograph(grid.image, grid.corners, rng, PhotoStyle(max_blur_sigma=0.0))
    h, w = photo.image.shape[:2]
    scale = min(LOW_RES_SIZE[0] / w, LOW_RES_SIZE[1] / h)
    small = cv2.resize(photo.image, (round(w * scale), round(h * scale)), cv2.INTER_AREA)
    small = degrade.blur(small, rng.uniform(*LOW_RES_BLUR_SIGMA))
    small = degrade.jpeg_roundtrip(small, 75)
    return HardPhoto(small, (puzzle,), (photo.corners * scale,))


def show_through(rng: np.random.Generator) -> HardPhoto:
    puzzle = _puzzle(rng)
    grid = render_grid(puzzle, cell_px=48, rng=rng)
    back = render_grid(_puzzle(rng), cell_px=48, rng=rng).image[:, ::-1]
    # Another page's print, seen through the paper: mirrored, shifted, faint.
    shift = rng.integers(-24, 25, 2)
    back = np.roll(back, tuple(int(s) for s in shift), axis=(0, 1))
    share = rng.uniform(*SHOW_THROUGH_SHARE)
    faint = (255 - share * (255 - back.astype(np.float32))).astype(np.uint8)
    photo = photograph(np.minimum(grid.image, faint), grid.corners, rng, SHARP)
    return HardPhoto(photo.image, (puzzle,), (photo.corners,))


def edge(rng: np.random.Generator) -> HardPhoto:
    puzzle = _puzzle(rng)
    grid = render_grid(puzzle, cell_px=48, rng=rng)
    photo = photograph(grid.image, grid.corners, rng, SHARP)
    # Cut the frame at the grid's outer line on one side (its line still in view).
    h, w = photo.image.shape[:2]
    x0, y0 = np.floor(photo.corners.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(photo.corners.max(axis=0)).astype(int) + 3
    box = [0, 0, w, h]
    side = int(rng.integers(0, 4))
    box[side] = [max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)][side]
    image = photo.image[box[1] : box[3], box[0] : box[2]]
    return HardPhoto(image, (puzzle,), (photo.corners - np.array(box[:2], np.float32),))


def touching(rng: np.random.Generator) -> HardPhoto:
    puzzles = [_generated(rng) for _ in range(4)]
    gap = rng.uniform(*TOUCHING_GAP_MM)
    page = styled_page(puzzles, PrintStyle(), dpi=150, columns=2, rng=rng, gap_mm=gap)
    corners = np.concatenate([g.corners for g in page.grids])
    photo = photograph(page.image, corners, rng, SHARP)
    placed = tuple(photo.corners[4 * k : 4 * k + 4] for k in range(len(page.grids)))
    return HardPhoto(photo.image, tuple(g.generated.puzzle for g in page.grids), placed)


def thick_border(rng: np.random.Generator) -> HardPhoto:
    puzzle = _puzzle(rng)
    cell = 48
    grid = render_grid(puzzle, cell_px=cell, rng=rng)
    image = grid.image.copy()
    width = int(rng.uniform(*THICK_BORDER_CELLS) * cell) | 1
    (x0, y0), (x1, y1) = grid.corners[0].astype(int), grid.corners[2].astype(int)
    # Centred on the outer line, as a heavier pen draws it; the margin holds its outer half.
    pad = width
    image = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(255,) * 3)
    cv2.rectangle(image, (x0 + pad, y0 + pad), (x1 + pad, y1 + pad), (20, 20, 20), width)
    photo = photograph(image, grid.corners + pad, rng, SHARP)
    return HardPhoto(photo.image, (puzzle,), (photo.corners,))


KINDS: dict[str, Callable[[np.random.Generator], HardPhoto]] = {
    "low_res_blur": low_res_blur,
    "show_through": show_through,
    "edge": edge,
    "touching": touching,
    "thick_border": thick_border,
}


def _generated(rng: np.random.Generator) -> GeneratedPuzzle:
    return random_puzzle(GridShape(3, 3), rng, holes=int(rng.integers(45, 60)))


def _puzzle(rng: np.random.Generator) -> Puzzle:
    return _generated(rng).puzzle
