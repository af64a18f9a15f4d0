"""Book pages in the print styles of other publishers' software, with truth.

``synth.book`` draws the project's own house style at random; here one style is set for the
whole page, so that a test can name the style it covers: hairline or grey lines (a TikZ grid
drawn at 0.3 pt), no thicker box lines (a spreadsheet print), digits larger than their cells,
numbers set against a cell's side, 16x16 with numbers or letters, alternate boxes shaded
instead of (or as well as) drawn in thicker lines, dashed cell lines, type in faces synth.book
never uses, and six to eight grids to a page, close together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth.book import Page, alternate_boxes, page_size_px
from sudoku_batch.synth.grid_image import Align, Labels, odd, render_grid
from sudoku_batch.synth.puzzles import GeneratedPuzzle, random_puzzle
from sudoku_batch.synth.truth import PlacedGrid

POINT_INCH = 72.0


@dataclass(frozen=True)
class PrintStyle:
    """How a publisher draws its grids. Line widths are in points, as in the PDF; a line
    thinner than a pixel at the page's dpi prints one pixel wide in a lighter grey, as a
    renderer's antialiasing does."""

    thin_pt: float = 0.5
    thick_pt: float = 2.0  # equal to thin_pt: no box lines
    line_grey: int = 20  # 0 black .. 255 white
    digit_scale: float = 1.0
    align: Align = "centre"
    labels: Labels = "numbers"
    shaded_boxes: bool = False  # alternate boxes shaded grey, as many books mark boxes
    shade_grey: int = 200  # the shaded boxes' grey, 0 black .. 255 white
    dashed: bool = False  # the cell lines (not the box lines) dashed
    doubled: bool = False  # the box lines inside the grid as two thin lines, paper between
    font: str | None = None  # a font file name (synth.fonts); None: DejaVu Sans


HAIRLINE_GREY = PrintStyle(thin_pt=0.3, thick_pt=0.3, line_grey=150)
HAIRLINE_BOXES = PrintStyle(thin_pt=0.3, thick_pt=1.5)
NO_BOX_LINES = PrintStyle(thin_pt=1.0, thick_pt=1.0)
OVERSIZED_DIGITS = PrintStyle(thin_pt=1.0, thick_pt=3.0, digit_scale=2.2)
LEFT_ALIGNED = PrintStyle(thin_pt=0.5, thick_pt=2.0, align="left")
# Grey hairline cells, boxes in black 1 pt lines, numbers set against the left line.
HAIRLINE_LEFT_ALIGNED = PrintStyle(thin_pt=0.3, thick_pt=1.0, line_grey=100, align="left")
LETTERS = PrintStyle(thin_pt=0.5, thick_pt=2.0, labels="letters")
# Boxes shown by shading alone: every line a grey hairline, alternate boxes grey.
SHADED_HAIRLINE = PrintStyle(thin_pt=0.3, thick_pt=0.3, line_grey=110, shaded_boxes=True)
DASHED_CELL_LINES = PrintStyle(thin_pt=0.5, thick_pt=1.5, dashed=True)
DOUBLED_BOX_LINES = PrintStyle(thin_pt=0.5, thick_pt=3.0, doubled=True)
# A hairline font (DejaVu Sans ExtraLight, held out of synth.book) at 0.7 of the usual size,
# set against the top of grey hairline cells, alternate boxes shaded.
HAIRLINE_FONT_TOP = PrintStyle(
    thin_pt=0.3,
    thick_pt=0.3,
    line_grey=120,
    shaded_boxes=True,
    align="top",
    digit_scale=0.7,
    font="DejaVuSans-ExtraLight.ttf",
)
PAPER = 255
# A dash and the gap after it, as shares of a cell.
DASH_CELLS, GAP_CELLS = 0.12, 0.08


def styled_page(
    puzzles: Sequence[GeneratedPuzzle],
    style: PrintStyle,
    *,
    dpi: int,
    columns: int,
    rng: np.random.Generator,
    gap_mm: float = 4.0,
) -> Page:
    """The puzzles on an A4 page in ``columns`` columns, as large as fits with ``gap_mm``
    between neighbouring grids, in reading order."""
    width, height = page_size_px(dpi)
    rows = -(-len(puzzles) // columns)
    gap = gap_mm / 25.4 * dpi
    margin = 0.05 * width
    slot = min((width - 2 * margin) / columns, (height - 2 * margin) / rows)
    page = np.full((height, width, 3), 255, np.uint8)
    grids = []
    for k, generated in enumerate(puzzles):
        n = generated.puzzle.size
        cell_px = int((slot - gap) / n)
        thin_px, thin_grey = _printed(style.thin_pt, dpi, style.line_grey)
        thick_px, _ = _printed(style.thick_pt, dpi, style.line_grey)
        rendered = render_grid(
            generated.puzzle,
            cell_px=cell_px,
            labels=style.labels,
            thin_px=thin_px,
            thick_px=thick_px,
            margin_px=thick_px,
            rng=rng,
            font=style.font,
            shaded=alternate_boxes(generated.puzzle.shape) if style.shaded_boxes else frozenset(),
            shade_rgb=(style.shade_grey,) * 3,
            line_rgb=(thin_grey,) * 3,
            digit_scale=style.digit_scale,
            align=style.align,
        )
        first = int(rendered.corners[0, 0])
        if style.dashed:
            _dash_cell_lines(rendered.image, generated.puzzle.shape, first, cell_px, thin_px)
        if style.doubled:
            _double_box_lines(rendered.image, generated.puzzle.shape, first, cell_px, thick_px)
        size = rendered.image.shape[0]
        x0 = int(margin + (k % columns) * slot + (slot - size) / 2)
        y0 = int(margin + (k // columns) * slot + (slot - size) / 2)
        page[y0 : y0 + size, x0 : x0 + size] = rendered.image
        corners = rendered.corners + np.array([x0, y0], np.float32)
        grids.append(PlacedGrid(generated, corners, rendered.shaded, rendered.font, style.labels))
    return Page(page, tuple(grids))


def random_puzzles(
    shape: GridShape, count: int, rng: np.random.Generator, fill: float = 0.4
) -> list[GeneratedPuzzle]:
    cells = shape.size**2
    return [random_puzzle(shape, rng, holes=int(round(cells * (1 - fill)))) for _ in range(count)]


def _dash_cell_lines(
    image: np.ndarray, shape: GridShape, first: int, cell_px: int, thin_px: int
) -> None:
    """Break each cell line (not box lines, not the border) into dashes, in place; ``first``
    is the centre pixel of the grid's first line. A gap takes the colour of the cell beside
    it."""
    n = shape.size
    lines = [first + i * cell_px for i in range(n + 1)]
    half = thin_px // 2
    period = max(2, round((DASH_CELLS + GAP_CELLS) * cell_px))
    gap = max(1, round(GAP_CELLS * cell_px))
    gaps = np.zeros(lines[-1] - lines[0], bool)
    gaps[np.arange(gaps.size) % period >= period - gap] = True
    span = slice(lines[0], lines[-1])
    for i in range(1, n):
        pos = lines[i]
        if i % shape.box_cols:  # a vertical cell line
            band = image[span, pos - half : pos + half + 1]
            band[gaps] = image[span, pos - half - 1][gaps][:, None]
        if i % shape.box_rows:  # a horizontal cell line
            band = image[pos - half : pos + half + 1, span]
            band[:, gaps] = image[pos - half - 1, span][gaps][None]


def _double_box_lines(
    image: np.ndarray, shape: GridShape, first: int, cell_px: int, thick_px: int
) -> None:
    """Each box line inside the grid as two lines a third of its width, paper between, in
    place."""
    n = shape.size
    lines = [first + i * cell_px for i in range(n + 1)]
    core = thick_px // 3 // 2  # half the paper between, round the line's centre
    span = slice(lines[0], lines[-1])
    for i in range(1, n):
        pos = lines[i]
        if i % shape.box_cols == 0:
            image[span, pos - core : pos + core + 1] = PAPER
        if i % shape.box_rows == 0:
            image[pos - core : pos + core + 1, span] = PAPER


def _printed(points: float, dpi: int, grey: int) -> tuple[int, int]:
    """A line's width in pixels and its grey: one pixel of proportionally lighter grey when
    it is thinner than a pixel."""
    pixels = points / POINT_INCH * dpi
    if pixels >= 1:
        return odd(pixels), grey
    return 1, int(round(255 - (255 - grey) * pixels))
