"""Jigsaw and diagonal Sudoku drawn as books and newspapers print them, photographed and
scanned, with truth.

Region borders are heavy lines over light cell lines, the regions often on coloured or grey
fills (neighbouring regions in different fills); the diagonals of an X Sudoku are drawn as
lines corner to corner or as shaded cells. Line weights, fills and fonts vary from grid to grid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np
from PIL import Image, ImageDraw

from sudoku_batch.pipeline.geometry import Regions, box_regions
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth.book import Page, page_size_px, scan
from sudoku_batch.synth.fonts import available_fonts, font_path
from sudoku_batch.synth.grid_image import INK_RGB, PAPER_RGB, draw_label, odd
from sudoku_batch.synth.photo import PhotoStyle, photograph
from sudoku_batch.synth.puzzles import GeneratedPuzzle
from sudoku_batch.synth.truth import PlacedGrid, grid_truth
from sudoku_batch.synth.variant_puzzles import random_variant_puzzle

Fills = Literal["none", "colour", "grey"]
DiagonalStyle = Literal["lines", "shaded"]

# Pastel fills as puzzle books print them behind jigsaw regions (RGB), and greys.
COLOUR_FILLS = (
    (255, 236, 179),
    (200, 230, 255),
    (214, 245, 205),
    (255, 210, 220),
    (230, 215, 255),
    (255, 225, 195),
)
GREY_FILLS = (255, 225, 200)
DIAGONAL_SHADE_RGB = (205, 205, 205)
DIAGONAL_LINE_RGB = (110, 110, 110)
NINE = GridShape(3, 3)
# Puzzles keep this share of their cells as givens, as books print them.
GIVEN_SHARE = 0.35
PHOTO = PhotoStyle()


@dataclass(frozen=True)
class VariantStyle:
    """How one grid is drawn: line widths in pixels, fills, the diagonals' drawing."""

    thin_px: int = 1
    thick_px: int = 5
    fills: Fills = "none"
    diagonal: DiagonalStyle = "lines"
    font: str | None = None
    region_lines: bool = True  # False: regions shown by their fills alone, the frame heavy


@dataclass(frozen=True)
class VariantImage:
    """A drawn variant grid, photo or page, with its truth: the grids in reading order, each
    placed (corners in the image's pixels) with its puzzle."""

    image: np.ndarray = field(repr=False)  # BGR, uint8
    grids: tuple[PlacedGrid, ...]
    puzzles: tuple[GeneratedPuzzle, ...]

    def truth(self) -> list[dict]:
        """Each grid's truth (``synth.truth``) with its ``variant`` and ``regions``."""
        return [
            grid_truth(grid)
            | {
                "variant": puzzle.puzzle.shape.variant,
                "regions": [list(r) for r in regions_of(puzzle)],
            }
            for grid, puzzle in zip(self.grids, self.puzzles, strict=True)
        ]


def random_style(
    rng: np.random.Generator, cell_px: int, fills: Fills | None = None, region_lines: bool = True
) -> VariantStyle:
    """Line weights of several kinds (a hairline with a 3 px border to 2 px with a 9 px one),
    fills and diagonals drawn at random."""
    thin = odd(rng.uniform(0.02, 0.05) * cell_px)
    thick = odd(max(thin + 2, rng.uniform(0.07, 0.17) * cell_px))
    fills = fills or str(rng.choice(("none", "colour", "grey")))
    # Grey regions leave no grey to shade the diagonals in: such books draw them.
    diagonal = "lines" if fills == "grey" else str(rng.choice(("lines", "shaded")))
    return VariantStyle(
        thin_px=thin,
        thick_px=thick,
        fills=fills,
        diagonal=diagonal,
        font=available_fonts()[int(rng.integers(len(available_fonts())))].name,
        region_lines=region_lines,
    )


def render_variant(
    puzzle: GeneratedPuzzle,
    style: VariantStyle,
    *,
    cell_px: int = 48,
    margin_px: int | None = None,
    rng: np.random.Generator | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The grid drawn on white paper (BGR) and its corners (TL, TR, BR, BL centre lines of
    the border)."""
    regions = regions_of(puzzle)
    diagonals = puzzle.puzzle.shape.diagonals
    n = len(regions)
    margin = margin_px if margin_px is not None else max(cell_px // 2, style.thick_px)
    side = 2 * margin + n * cell_px + 1
    lines = [margin + i * cell_px for i in range(n + 1)]
    image = Image.new("RGB", (side, side), PAPER_RGB)
    draw = ImageDraw.Draw(image)

    fill = _region_fills(regions, style.fills)
    for r in range(n):
        for c in range(n):
            on_diagonal = diagonals and (r == c or r + c == n - 1)
            colour = DIAGONAL_SHADE_RGB if on_diagonal and style.diagonal == "shaded" else None
            colour = colour or fill[regions[r][c]]
            if colour != PAPER_RGB:
                draw.rectangle((lines[c], lines[r], lines[c + 1], lines[r + 1]), fill=colour)
    if diagonals and style.diagonal == "lines":
        width = max(1, style.thin_px)
        draw.line((lines[0], lines[0], lines[-1], lines[-1]), DIAGONAL_LINE_RGB, width)
        draw.line((lines[-1], lines[0], lines[0], lines[-1]), DIAGONAL_LINE_RGB, width)
    for pos in lines:
        half = style.thin_px // 2
        draw.rectangle((pos - half, lines[0], pos + half, lines[-1]), fill=INK_RGB)
        draw.rectangle((lines[0], pos - half, lines[-1], pos + half), fill=INK_RGB)
    half = style.thick_px // 2
    for r in range(n):
        for c in range(n + 1):
            # The vertical edge left of cell (r, c): heavy on the border and between regions.
            if c in (0, n) or (style.region_lines and regions[r][c - 1] != regions[r][c]):
                draw.rectangle(
                    (lines[c] - half, lines[r] - half, lines[c] + half, lines[r + 1] + half),
                    fill=INK_RGB,
                )
    for c in range(n):
        for r in range(n + 1):
            if r in (0, n) or (style.region_lines and regions[r - 1][c] != regions[r][c]):
                draw.rectangle(
                    (lines[c] - half, lines[r] - half, lines[c + 1] + half, lines[r] + half),
                    fill=INK_RGB,
                )
    path = font_path(style.font)
    for r, row in enumerate(puzzle.puzzle.givens):
        for c, value in enumerate(row):
            if value:
                cell = (lines[c], lines[r], lines[c + 1], lines[r + 1])
                draw_label(draw, str(value), cell, path, rng)
    lo, hi = float(lines[0]), float(lines[-1])
    corners = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float32)
    return np.ascontiguousarray(np.asarray(image)[:, :, ::-1]), corners


def regions_of(puzzle: GeneratedPuzzle) -> Regions:
    """A puzzle's regions: a jigsaw's, or its boxes."""
    shape = puzzle.puzzle.shape
    return shape.regions or box_regions(shape.box_rows, shape.box_cols)


def _region_fills(regions: Regions, fills: Fills) -> list[tuple[int, int, int]]:
    """A fill per region, neighbouring regions in different fills where the palette allows
    (greedy colouring; grey has three levels, so a few neighbours may share one)."""
    n = len(regions)
    if fills == "none":
        return [PAPER_RGB] * n
    palette = COLOUR_FILLS if fills == "colour" else tuple((g, g, g) for g in GREY_FILLS)
    touching: list[set[int]] = [set() for _ in range(n)]
    for r in range(n):
        for c in range(n):
            for y, x in ((r + 1, c), (r, c + 1)):
                if y < n and x < n and regions[y][x] != regions[r][c]:
                    touching[regions[r][c]].add(regions[y][x])
                    touching[regions[y][x]].add(regions[r][c])
    chosen: list[int] = []
    for k in range(n):
        used = {chosen[j] for j in touching[k] if j < k}
        free = [i for i in range(len(palette)) if i not in used]
        chosen.append(free[0] if free else k % len(palette))
    return [palette[i] for i in chosen]


def random_variant(
    rng: np.random.Generator, variant: str, shape: GridShape = NINE
) -> GeneratedPuzzle:
    """A unique puzzle of ``variant`` (``jigsaw``, ``diagonal``, ``jigsaw+diagonal``,
    ``classic``)."""
    parts = variant.split("+")
    return random_variant_puzzle(
        shape.size,
        rng,
        jigsaw="jigsaw" in parts,
        diagonals="diagonal" in parts,
        keep=round(GIVEN_SHARE * shape.size**2),
    )


def variant_photo(
    puzzle: GeneratedPuzzle,
    rng: np.random.Generator,
    *,
    fills: Fills | None = None,
    style: PhotoStyle = PHOTO,
    region_lines: bool = True,
) -> VariantImage:
    """A phone-like photo of one printed variant grid; without ``region_lines`` its regions
    show by their fills alone."""
    cell_px = int(rng.integers(40, 64))
    drawn = random_style(rng, cell_px, fills, region_lines)
    image, corners = render_variant(puzzle, drawn, cell_px=cell_px, rng=rng)
    photo = photograph(image, corners, rng, style)
    placed = PlacedGrid(puzzle, photo.corners, frozenset(), drawn.font or "", "numbers")
    return VariantImage(photo.image, (placed,), (puzzle,))


def variant_page(
    puzzles: list[GeneratedPuzzle],
    rng: np.random.Generator,
    *,
    fills: Fills | None = None,
    dpi: int = 150,
    scanned: bool = True,
) -> VariantImage:
    """A book page of variant grids, one above the other, clean or scanned."""
    width, height = page_size_px(dpi)
    page = np.full((height, width, 3), 255, np.uint8)
    slot = height * 0.9 / len(puzzles)
    placed = []
    for k, puzzle in enumerate(puzzles):
        n = puzzle.puzzle.size
        cell_px = int(min(0.8 * width, 0.9 * slot) / n)
        drawn = random_style(rng, cell_px, fills)
        image, corners = render_variant(puzzle, drawn, cell_px=cell_px, rng=rng)
        size = image.shape[0]
        x0 = int((width - size) / 2)
        y0 = int(0.05 * height + k * slot + (slot - size) / 2)
        page[y0 : y0 + size, x0 : x0 + size] = image
        corners = corners + np.array([x0, y0], np.float32)
        placed.append(PlacedGrid(puzzle, corners, frozenset(), drawn.font or "", "numbers"))
    grids = tuple(placed)
    if not scanned:
        return VariantImage(page, grids, tuple(puzzles))
    scan_page = scan(Page(page, grids), rng)
    image = cv2.imdecode(np.frombuffer(scan_page.jpeg, np.uint8), cv2.IMREAD_COLOR)
    return VariantImage(image, scan_page.grids, tuple(puzzles))
