"""Draw a clean, fronto-parallel Sudoku grid and record exactly where everything is."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
from PIL import Image, ImageDraw

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import Puzzle
from sudoku_batch.pipeline.reading import symbol_of
from sudoku_batch.synth.fonts import font_path, load_font

# How values above 9 are printed: "numbers" gives 10..16, "letters" gives A..G.
Labels = Literal["numbers", "letters"]
# Where a label sits in its cell: centred, or pushed against one of the cell's lines or into a
# corner (some generators print numbers as left- or right-aligned text in a table cell, or a
# small number in a cell's corner).
Align = Literal[
    "centre",
    "left",
    "right",
    "top",
    "bottom",
    "top-left",
    "top-right",
    "bottom-left",
    "bottom-right",
]

INK_RGB = (20, 20, 20)
PAPER_RGB = (255, 255, 255)
BLOCKED_RGB = (35, 35, 35)
SHADE_RGB = (215, 215, 215)


@dataclass(frozen=True)
class RenderedGrid:
    """A drawn grid and its truth.

    ``corners`` are TL, TR, BR, BL (x, y) in image pixels (pixel centres at integers): the
    centre lines of the outer border. Every grid line sits exactly at an equal fraction of
    the way between them, so a homography from the unit square to ``corners`` places every
    cell, even after the image is warped.
    """

    image: np.ndarray = field(repr=False)  # BGR, uint8
    puzzle: Puzzle
    corners: np.ndarray = field(repr=False)  # (4, 2) float32
    shaded: frozenset[tuple[int, int]]
    font: str  # file name of the digit font
    labels: Labels

    @property
    def kinds(self) -> tuple[tuple[CellKind, ...], ...]:
        return tuple(tuple(cell_kind(v) for v in row) for row in self.puzzle.givens)


def cell_kind(value: int | None) -> CellKind:
    if value is None:
        return CellKind.BLOCKED
    return CellKind.GIVEN if value else CellKind.EMPTY


def label_text(value: int, labels: Labels) -> str:
    return symbol_of(value, labels)  # as the answer key prints a book's symbols


def odd(width: float) -> int:
    # Odd line widths centre a line exactly on a pixel, so the truth corners are exact.
    return int(width) // 2 * 2 + 1


def render_grid(
    puzzle: Puzzle,
    *,
    cell_px: int = 48,
    font: str | None = None,
    labels: Labels = "numbers",
    shaded: frozenset[tuple[int, int]] = frozenset(),
    shade_rgb: tuple[int, int, int] = SHADE_RGB,
    thin_px: int | None = None,
    thick_px: int | None = None,
    margin_px: int | None = None,
    rng: np.random.Generator | None = None,
    line_rgb: tuple[int, int, int] = INK_RGB,
    digit_scale: float = 1.0,
    align: Align = "centre",
) -> RenderedGrid:
    """Draw ``puzzle`` on white paper: thin cell lines, thick box lines, printed givens,
    dark blocked cells and ``shaded`` cells filled with ``shade_rgb``.

    ``font`` is a font file name (see synth.fonts); ``rng``, if given, nudges each digit off
    centre a little, as printing does. Other publishers' styles: ``line_rgb`` grey lines,
    ``thick_px`` equal to ``thin_px`` for no box lines (a spreadsheet print), ``digit_scale``
    above 1 for digits larger than their cells, ``align`` for labels set against a line.
    """
    shape, n = puzzle.shape, puzzle.size
    thin = odd(thin_px or max(1, cell_px / 40))
    thick = odd(thick_px or max(3, cell_px / 12))
    margin = margin_px if margin_px is not None else max(cell_px // 2, thick)
    side = 2 * margin + n * cell_px + 1
    lines = [margin + i * cell_px for i in range(n + 1)]  # centre pixel of each line

    image = Image.new("RGB", (side, side), PAPER_RGB)
    draw = ImageDraw.Draw(image)
    for r, c in shaded:
        draw.rectangle((lines[c], lines[r], lines[c + 1], lines[r + 1]), fill=shade_rgb)
    for r, row in enumerate(puzzle.givens):
        for c, value in enumerate(row):
            if value is None:
                draw.rectangle((lines[c], lines[r], lines[c + 1], lines[r + 1]), fill=BLOCKED_RGB)
    for i, pos in enumerate(lines):
        box_line = i % shape.box_cols == 0
        half = (thick if box_line else thin) // 2
        draw.rectangle((pos - half, lines[0], pos + half, lines[-1]), fill=line_rgb)
    for i, pos in enumerate(lines):
        box_line = i % shape.box_rows == 0
        half = (thick if box_line else thin) // 2
        draw.rectangle((lines[0], pos - half, lines[-1], pos + half), fill=line_rgb)

    path = font_path(font)
    for r, row in enumerate(puzzle.givens):
        for c, value in enumerate(row):
            if value:
                cell = (lines[c], lines[r], lines[c + 1], lines[r + 1])
                text = label_text(value, labels)
                draw_label(draw, text, cell, path, rng, scale=digit_scale, align=align)

    lo, hi = float(lines[0]), float(lines[-1])
    corners = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float32)
    bgr = np.ascontiguousarray(np.asarray(image)[:, :, ::-1])
    return RenderedGrid(bgr, puzzle, corners, frozenset(shaded), path.name, labels)


def draw_label(
    draw: ImageDraw.ImageDraw,
    text: str,
    cell: tuple[int, int, int, int],
    path: Path,
    rng: np.random.Generator | None,
    *,
    scale: float = 1.0,
    align: Align = "centre",
) -> None:
    """Print ``text`` in the cell (left, top, right, bottom line centres), about 60% of a cell
    tall times ``scale``: its ink box centred, or a small gap from the ``align`` line."""
    left_line, top_line, right_line, bottom_line = cell
    cell_px = right_line - left_line
    size = max(6, round(cell_px * 0.72 * scale))
    font = load_font(path, size)
    left, top, right, bottom = font.getbbox(text)
    # Two-character labels (10..16) must still fit between the cell's lines (unless the style
    # is digits larger than their cells).
    if right - left > 0.78 * cell_px * scale:
        size = max(6, int(size * 0.78 * cell_px * scale / (right - left)))
        font = load_font(path, size)
        left, top, right, bottom = font.getbbox(text)
    gap = 0.1 * cell_px
    x = (left_line + right_line) / 2 - (left + right) / 2
    y = (top_line + bottom_line) / 2 - (top + bottom) / 2
    sides = align.split("-")
    if "left" in sides:
        x = left_line + gap - left
    elif "right" in sides:
        x = right_line - gap - right
    if "top" in sides:
        y = top_line + gap - top
    elif "bottom" in sides:
        y = bottom_line - gap - bottom
    if rng is not None:
        x, y = (x, y) + rng.uniform(-0.04, 0.04, 2) * cell_px
    draw.text((round(x), round(y)), text, font=font, fill=INK_RGB)
