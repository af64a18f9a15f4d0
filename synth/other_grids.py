"""Grids that are not Sudoku, printed as books print them beside their puzzles: a "hints" grid
(the puzzle's lattice with the order in which its empty cells are solved, 1..K), a number table
and a month's calendar. Each comes with the truth of what it is, for the grid-kind tests and
benchmarks (``OtherGrid.kind``, ``OtherGrid.reason``).
"""

from __future__ import annotations

import calendar
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth.answer_pages import answer_grid
from sudoku_batch.synth.book import (
    PAPER_RGB,
    TEXT_RGB,
    Page,
    ScanStyle,
    draw_page,
    page_size_px,
    scan,
)
from sudoku_batch.synth.fonts import available_fonts, load_font
from sudoku_batch.synth.grid_image import INK_RGB
from sudoku_batch.synth.puzzles import GeneratedPuzzle
from sudoku_batch.synth.unique import unique_puzzle

WEEKDAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")


@dataclass(frozen=True)
class OtherGrid:
    """A lattice of numbers that is no Sudoku: ``cells[r][c]`` is the text printed in a cell
    ("" for none); ``box`` the rows and columns between thick lines (None: all lines thin)."""

    kind: str  # hints, table or calendar
    cells: tuple[tuple[str, ...], ...]
    box: tuple[int, int] | None
    corners: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0])


def hints_grid(generated: GeneratedPuzzle, rng: np.random.Generator) -> OtherGrid:
    """The puzzle's lattice with its empty cells numbered in a solving order (a random order
    here: only the numbers matter to a reader), its givens left blank."""
    empty = [
        (r, c)
        for r, row in enumerate(generated.puzzle.givens)
        for c, value in enumerate(row)
        if value == 0
    ]
    order = rng.permutation(len(empty))
    n = generated.puzzle.size
    cells = [[""] * n for _ in range(n)]
    for number, k in enumerate(order, start=1):
        r, c = empty[k]
        cells[r][c] = str(number)
    shape = generated.puzzle.shape
    return OtherGrid("hints", tuple(map(tuple, cells)), (shape.box_rows, shape.box_cols))


def number_table(rng: np.random.Generator, side: int = 9) -> OtherGrid:
    """A ``side`` x ``side`` table of numbers counting on from a random start (a times table
    or a hundred square in a children's puzzle book)."""
    start = int(rng.integers(1, 40))
    cells = tuple(tuple(str(start + r * side + c) for c in range(side)) for r in range(side))
    return OtherGrid("table", cells, None)


def month_calendar(year: int, month: int) -> OtherGrid:
    """A month as a 7-column calendar: a row of weekday names, then the weeks' dates."""
    weeks = calendar.Calendar().monthdayscalendar(year, month)
    cells = [WEEKDAYS, *(tuple(str(day) if day else "" for day in week) for week in weeks)]
    return OtherGrid("calendar", tuple(cells), None)


def draw_other_page(
    grids: Sequence[OtherGrid],
    rng: np.random.Generator,
    *,
    number: int,
    dpi: int = 150,
    fonts: Sequence[Path] | None = None,
) -> tuple[np.ndarray, tuple[OtherGrid, ...]]:
    """Lay out ``grids`` (1-4) one under the other on a clean A4 page with a title, in a face
    drawn from ``fonts`` (default: every one installed); returns the page (BGR) and the grids
    with their corners on it."""
    width, height = page_size_px(dpi)
    page = Image.new("RGB", (width, height), PAPER_RGB)
    draw = ImageDraw.Draw(page)
    fonts = available_fonts() if fonts is None else tuple(fonts)
    font = fonts[rng.integers(len(fonts))]
    title = load_font(font, round(0.022 * height))
    draw.text((width / 2, 0.05 * height), "Hints and extras", TEXT_RGB, title, anchor="mm")
    small = load_font(font, round(0.011 * height))
    draw.text((width / 2, 0.96 * height), f"- {number} -", TEXT_RGB, small, anchor="mm")
    top, bottom = 0.1 * height, 0.93 * height
    slot_h = (bottom - top) / len(grids)
    placed = []
    for k, grid in enumerate(grids):
        cell = int(min(0.8 * width / grid.cols, 0.85 * slot_h / grid.rows))
        x0 = int((width - cell * grid.cols) / 2)
        y0 = int(top + k * slot_h + (slot_h - cell * grid.rows) / 2)
        _draw_lattice(draw, grid, x0, y0, cell, load_font(font, max(8, int(0.45 * cell))))
        right, low = x0 + cell * grid.cols, y0 + cell * grid.rows
        corners = np.array([[x0, y0], [right, y0], [right, low], [x0, low]], np.float32)
        placed.append(OtherGrid(grid.kind, grid.cells, grid.box, corners))
    return np.ascontiguousarray(np.asarray(page)[:, :, ::-1]), tuple(placed)


def _draw_lattice(draw: ImageDraw.ImageDraw, grid: OtherGrid, x0: int, y0: int, cell: int, font):
    thin = max(1, cell // 30)
    thick = max(thin + 1, cell // 12)
    for r in range(grid.rows + 1):
        bold = r in (0, grid.rows) or (grid.box is not None and r % grid.box[0] == 0)
        y = y0 + r * cell
        draw.line([(x0, y), (x0 + grid.cols * cell, y)], INK_RGB, thick if bold else thin)
    for c in range(grid.cols + 1):
        bold = c in (0, grid.cols) or (grid.box is not None and c % grid.box[1] == 0)
        x = x0 + c * cell
        draw.line([(x, y0), (x, y0 + grid.rows * cell)], INK_RGB, thick if bold else thin)
    for r, row in enumerate(grid.cells):
        for c, text in enumerate(row):
            if text:
                centre = (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell)
                draw.text(centre, text, INK_RGB, font, anchor="mm")


@dataclass(frozen=True)
class MixedBook:
    """A scanned book's pages (JPEG bytes, width, height) and, per page, what each grid on it is
    in reading order: ``puzzle``, ``answer``, or an other grid's kind."""

    pages: tuple[tuple[bytes, int, int], ...] = field(repr=False)
    kinds: tuple[tuple[str, ...], ...]
    puzzles: tuple[GeneratedPuzzle, ...]


def mixed_book(
    rng: np.random.Generator, dpi: int = 150, fonts: Sequence[Path] | None = None
) -> MixedBook:
    """A 9x9 and a 16x16 puzzle, a page of their hints grids, a page with a number table and a
    calendar, and a page of their answers, in faces drawn from ``fonts`` (default: every one
    installed, so a seed's book depends on the machine's fonts unless they are given)."""
    gentle = ScanStyle(0.5, 0.3, 1.0, 0.05, 20, (85, 92))
    nine = unique_puzzle(GridShape(3, 3), rng, givens=28)
    sixteen = unique_puzzle(GridShape(4, 4), rng, givens=120)
    puzzles = (nine, sixteen)
    pages, kinds = [], []

    def add(page: Page, grid_kinds: tuple[str, ...]) -> None:
        scanned = scan(page, rng, gentle)
        pages.append((scanned.jpeg, scanned.width, scanned.height))
        kinds.append(grid_kinds)

    add(draw_page(puzzles, rng, number=1, dpi=dpi, fonts=fonts), ("puzzle", "puzzle"))
    for number, others in (
        (2, (hints_grid(nine, rng), hints_grid(sixteen, rng))),
        (3, (number_table(rng), month_calendar(2026, int(rng.integers(1, 13))))),
    ):
        image, placed = draw_other_page(others, rng, number=number, dpi=dpi, fonts=fonts)
        add(Page(image, ()), tuple(grid.kind for grid in placed))
    answers = [answer_grid(nine), answer_grid(sixteen)]
    page = draw_page(answers, rng, number=4, dpi=dpi, first_puzzle=1, fonts=fonts)
    add(page, ("answer", "answer"))
    return MixedBook(tuple(pages), tuple(kinds), puzzles)
