"""Photos and pages of the kinds grid finding failed on in held-out sets, with truth.

- ``low_res_blur``: a phone photo saved at 640x480 and strongly blurred;
- ``show_through``: a sharp photo of thin paper, the other side's grid showing through faintly,
  mirrored;
- ``edge``: a photo framed so tightly that the grid touches the image's edge;
- ``touching``: a page of grids printed up to 2 mm apart, photographed;
- ``touching_rows``: three or more grids of one size in rows and columns (1x3, 3x1, 2x3, 3x2,
  3x3), sharing their borders or 0.5-1 mm apart;
- ``touching_mixed``: a 9x9 with a 6x6 or 4x4 printed against one of its sides, not aligned
  with it and with cells of another size;
- ``touching_doubled``: two or four grids about 1 mm apart, their two borders showing as one
  doubled line;
- ``thick_border``: a grid whose outer border prints several times as heavy as its box lines;
- ``touching_wide``: four 9x9s a side (4x1, 1x4, 4x2, 2x4), sharing their borders, 0.5-1 mm
  apart or about 1 mm apart (doubled lines);
- ``touching_mixed_rows``: a 9x9 with two smaller grids (6x6 or 4x4) against it, both along
  one of its sides or one beside and one below it;
- ``touching_16``: 16x16 grids (1x2, 2x1, 2x2) sharing their borders or 0.5-1 mm apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.synth import degrade
from sudoku_batch.synth.grid_image import odd, render_grid
from sudoku_batch.synth.photo import PhotoStyle, photograph
from sudoku_batch.synth.puzzles import GeneratedPuzzle, random_puzzle
from sudoku_batch.synth.styles import POINT_INCH, PrintStyle, styled_page

LOW_RES_SIZE = (640, 480)
LOW_RES_BLUR_SIGMA = (1.5, 2.5)  # at 640x480: a grid's thin lines smear over 3-5 pixels
SHOW_THROUGH_SHARE = (0.12, 0.25)  # of the other side's print contrast
TOUCHING_GAP_MM = (0.0, 2.0)  # between neighbouring grids' borders (nearly touching)
NEAR_GAP_MM = (0.5, 1.0)  # a gap of under a cell's line spacing: the borders nearly merge
DOUBLED_GAP_MM = (0.8, 1.3)  # two borders a line's width apart: a doubled line
ROW_LAYOUTS = ((3, 1), (1, 3), (2, 3), (3, 2), (3, 3))  # columns x rows
WIDE_LAYOUTS = ((4, 1), (1, 4), (4, 2), (2, 4))
PAIR_LAYOUTS = ((2, 1), (1, 2), (2, 2))
SMALL_CELL_RATIO = (0.8, 1.3)  # of a small grid's cells to the 9x9's beside it
LAYOUT_DPI = 150
LAYOUT_WIDTH_PX = 1100  # a layout's longer side: a page width at 150 dpi
PAGE_MARGIN_MM = 8.0  # white paper around a layout
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


def touching_rows(rng: np.random.Generator) -> HardPhoto:
    columns, rows = ROW_LAYOUTS[int(rng.integers(len(ROW_LAYOUTS)))]
    shape = GridShape(3, 3) if rng.random() < 0.7 else GridShape(2, 3)
    return grids_in_rows(rng, shape, columns, rows, _gap_mm(rng, NEAR_GAP_MM))


def touching_doubled(rng: np.random.Generator) -> HardPhoto:
    columns, rows = ((2, 1), (1, 2), (2, 2))[int(rng.integers(3))]
    return grids_in_rows(rng, GridShape(3, 3), columns, rows, rng.uniform(*DOUBLED_GAP_MM))


def touching_mixed(rng: np.random.Generator) -> HardPhoto:
    small_shape = GridShape(2, 3) if rng.random() < 0.5 else GridShape(2, 2)
    gap = _gap_mm(rng, NEAR_GAP_MM)
    return small_grid_beside_9x9(rng, small_shape, gap, below=bool(rng.random() < 0.5))


def touching_wide(rng: np.random.Generator) -> HardPhoto:
    columns, rows = WIDE_LAYOUTS[int(rng.integers(len(WIDE_LAYOUTS)))]
    gap = (0.0, rng.uniform(*NEAR_GAP_MM), rng.uniform(*DOUBLED_GAP_MM))[int(rng.integers(3))]
    return grids_in_rows(rng, GridShape(3, 3), columns, rows, gap)


def touching_mixed_rows(rng: np.random.Generator) -> HardPhoto:
    small_shape = GridShape(2, 3) if rng.random() < 0.5 else GridShape(2, 2)
    gap = _gap_mm(rng, NEAR_GAP_MM)
    return small_grids_around_9x9(
        rng, small_shape, gap, below=bool(rng.random() < 0.5), stacked=bool(rng.random() < 0.5)
    )


def touching_16(rng: np.random.Generator) -> HardPhoto:
    columns, rows = PAIR_LAYOUTS[int(rng.integers(len(PAIR_LAYOUTS)))]
    return grids_in_rows(rng, GridShape(4, 4), columns, rows, _gap_mm(rng, NEAR_GAP_MM))


def grids_in_rows(
    rng: np.random.Generator, shape: GridShape, columns: int, rows: int, gap_mm: float
) -> HardPhoto:
    """``columns`` x ``rows`` grids of one shape, ``gap_mm`` apart (0: sharing borders)."""
    step = _border_distance(gap_mm)
    across = max(columns, rows)
    cell = int((LAYOUT_WIDTH_PX - step * (across - 1)) / across / shape.size)
    pitch = cell * shape.size + step
    origins = [(c * pitch, r * pitch) for r in range(rows) for c in range(columns)]
    return _photographed(rng, [shape] * len(origins), [cell] * len(origins), origins)


def small_grid_beside_9x9(
    rng: np.random.Generator, small_shape: GridShape, gap_mm: float, below: bool
) -> HardPhoto:
    """A 9x9 with a smaller grid ``gap_mm`` from its right (or bottom) side, anywhere along
    it but not flush with its ends, and with cells of another size."""
    big_shape = GridShape(3, 3)
    big_cell = int(LAYOUT_WIDTH_PX / 2 / big_shape.size)
    small_cell = int(big_cell * rng.uniform(*SMALL_CELL_RATIO))
    big_side, small_side = big_cell * big_shape.size, small_cell * small_shape.size
    along = int(rng.uniform(0.1, 0.9) * (big_side - small_side))
    beside = big_side + _border_distance(gap_mm)
    origins = [(0, 0), (along, beside) if below else (beside, along)]
    return _photographed(rng, [big_shape, small_shape], [big_cell, small_cell], origins)


def small_grids_around_9x9(
    rng: np.random.Generator, small_shape: GridShape, gap_mm: float, below: bool, stacked: bool
) -> HardPhoto:
    """A 9x9 with two smaller grids ``gap_mm`` from it and from each other: both along its
    right (or bottom) side when ``stacked``, else one beside it and one below it, each
    anywhere along its side; their cells are of another size than the 9x9's."""
    big_shape = GridShape(3, 3)
    step = _border_distance(gap_mm)
    big_cell = int(LAYOUT_WIDTH_PX / 2 / big_shape.size)
    big_side = big_cell * big_shape.size
    if stacked:
        # Two small grids side by side along the 9x9's side, together about as long as it.
        small_cell = int((big_side - step) / 2 / small_shape.size * rng.uniform(0.85, 1.15))
    else:
        small_cell = int(big_cell * rng.uniform(*SMALL_CELL_RATIO))
    small_side = small_cell * small_shape.size
    beside = big_side + step
    if stacked:
        start = int(rng.uniform(-0.1, 0.1) * small_side)
        spots = [(start, beside), (start + small_side + step, beside)]
    else:
        spots = [(int(rng.uniform(0.1, 0.9) * (big_side - small_side)), beside) for _ in range(2)]
    # (along the 9x9's side, out from it); for one beside and one below, the second is turned
    # to lie below.
    origins = [(0, 0)]
    for k, (along, out) in enumerate(spots):
        down = below if stacked else k == 1
        origins.append((along, out) if down else (out, along))
    # A grid drawn above or left of the 9x9 is shifted with everything else onto the page.
    shift = (min(x for x, _ in origins), min(y for _, y in origins))
    origins = [(x - shift[0], y - shift[1]) for x, y in origins]
    cells = [big_cell, small_cell, small_cell]
    return _photographed(rng, [big_shape, small_shape, small_shape], cells, origins)


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
    "touching_rows": touching_rows,
    "touching_mixed": touching_mixed,
    "touching_doubled": touching_doubled,
    "touching_wide": touching_wide,
    "touching_mixed_rows": touching_mixed_rows,
    "touching_16": touching_16,
}


def _gap_mm(rng: np.random.Generator, near: tuple[float, float]) -> float:
    """No gap (shared borders) half the time, else a gap in ``near``."""
    return 0.0 if rng.random() < 0.5 else rng.uniform(*near)


def _border_distance(gap_mm: float) -> int:
    """Pixels from one grid's border line to the next one's: none for a shared border, else
    the gap between the two lines' edges plus a line's width."""
    if gap_mm <= 0:
        return 0
    return round(gap_mm / 25.4 * LAYOUT_DPI) + _printed_px(PrintStyle().thick_pt)


def _photographed(
    rng: np.random.Generator,
    shapes: list[GridShape],
    cells: list[int],
    origins: list[tuple[int, int]],
) -> HardPhoto:
    """Grids drawn with their top-left border corners at ``origins`` (ink over ink, so that
    a shared border stays one line), on white paper, photographed sharply."""
    style = PrintStyle()
    thin, thick = _printed_px(style.thin_pt), _printed_px(style.thick_pt)
    margin = round(PAGE_MARGIN_MM / 25.4 * LAYOUT_DPI)
    width = max(
        x + cell * shape.size for (x, _), cell, shape in zip(origins, cells, shapes, strict=True)
    )
    height = max(
        y + cell * shape.size for (_, y), cell, shape in zip(origins, cells, shapes, strict=True)
    )
    page = np.full((height + 2 * margin + 1, width + 2 * margin + 1, 3), 255, np.uint8)
    puzzles, corners = [], []
    for (x, y), cell, shape in zip(origins, cells, shapes, strict=True):
        generated = random_puzzle(shape, rng, holes=int(shape.size**2 * rng.uniform(0.55, 0.7)))
        grid = render_grid(
            generated.puzzle, cell_px=cell, thin_px=thin, thick_px=thick, margin_px=thick, rng=rng
        )
        side, left, top = grid.image.shape[0], x + margin - thick, y + margin - thick
        window = page[top : top + side, left : left + side]
        np.minimum(window, grid.image, out=window)
        puzzles.append(generated.puzzle)
        corners.append(grid.corners + np.array([left, top], np.float32))
    photo = photograph(page, np.concatenate(corners), rng, SHARP)
    placed = tuple(photo.corners[4 * k : 4 * k + 4] for k in range(len(puzzles)))
    return HardPhoto(photo.image, tuple(puzzles), placed)


def _printed_px(points: float) -> int:
    return odd(points / POINT_INCH * LAYOUT_DPI)


def _generated(rng: np.random.Generator) -> GeneratedPuzzle:
    return random_puzzle(GridShape(3, 3), rng, holes=int(rng.integers(45, 60)))


def _puzzle(rng: np.random.Generator) -> Puzzle:
    return _generated(rng).puzzle
