"""An answer-key PDF: solutions laid out several per page, each under its puzzle's number.

Drawn by ReportLab as vector lines and text (the Bitstream Vera fonts ReportLab ships, embedded
as subsets, as a printer expects) on A4 or Letter. The grid size decides the layout: the most
grids a page holds with every digit still legible (``layout_for``); a page holds grids of one
layout. Each grid has its title (the puzzle number) and, below it, where the puzzle came from,
wrapped to two lines and shortened in the middle if longer; the outline (bookmarks) holds every
entry's whole title and source.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import groupby
from pathlib import Path

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from sudoku_batch.pipeline.grid import Grid, GridShape
from sudoku_batch.pipeline.reading import symbol_of
from sudoku_batch.pipeline.region_lines import diagonal_lines, marks_diagonals, region_borders

PAGE_SIZES = {"a4": A4, "letter": LETTER}  # points
MARGIN = 15 * mm
GUTTER = 8 * mm  # between grids, across and down
TITLE_SIZE = 14  # the page title, points
NUMBER_SIZE = 11  # an entry's title
SOURCE_SIZE = 7  # an entry's source line
SOURCE_LINES = 2
LEADING = 1.2  # line height, of the font size
MIN_TEXT = 5  # points: no caption is set smaller; past this it is shortened
DIGIT_SHARE = 0.62  # of a cell's side: a digit's size
SYMBOL_WIDTH = 0.8  # of a cell's side: the widest a symbol ("16", "25") may be set
THIN, THICK = 0.5, 1.5  # line widths: cells, boxes and the frame
ELLIPSIS = "\u2026"

FONT, BOLD = "Vera", "VeraBd"


@cache
def _register_fonts() -> None:
    """ReportLab knows fonts by name, process-wide: registered once, on first use."""
    pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
    pdfmetrics.registerFont(TTFont(BOLD, "VeraBd.ttf"))


@dataclass(frozen=True)
class KeyEntry:
    title: str  # the puzzle's number as the key prints it, e.g. "12" or "Easy 12"
    solution: Grid | None  # None: the puzzle has no solution to print, ``note`` says why
    shape: GridShape | None = None  # box shape; the conventional one for the size when None
    source: str = ""  # where the puzzle is, whole, for the outline: "scans/2026/book.pdf p. 3"
    symbols: str | None = None  # how the book prints digits above 9 (pipeline.reading)
    note: str = ""
    place: str = ""  # where the puzzle is, as the caption prints it ("book.pdf p. 3"): source
    regions: tuple[tuple[int, ...], ...] | None = None  # drawn in heavy lines instead of boxes
    variant: str = "classic"  # a diagonal variant draws its two diagonals

    @property
    def caption(self) -> str:
        return self.place or self.source

    @property
    def size(self) -> int:
        return self.shape.size if self.shape else len(self.solution or ())


@dataclass(frozen=True)
class Layout:
    columns: int
    rows: int


def layout_for(size: int) -> Layout:
    """Grids across and down a page: 2 x 3 for 9x9 as answer pages commonly print them, more
    for smaller grids, fewer for larger, one a page from 17x17 up (a 25x25's cell is then
    about 7 mm across on A4)."""
    if size <= 6:
        return Layout(3, 4)
    if size <= 9:
        return Layout(2, 3)
    if size <= 12:
        return Layout(2, 2)
    if size <= 16:
        return Layout(1, 2)
    return Layout(1, 1)


def write_answer_key_pdf(
    entries: Sequence[KeyEntry], path: Path, paper: str = "a4", title: str = "Solutions"
) -> int:
    """Write the PDF and return its page count (one titled page when there are no entries,
    so the file is always a valid PDF)."""
    _register_fonts()
    page_size = PAGE_SIZES[paper]
    canvas = Canvas(str(path), pagesize=page_size, pageCompression=1, invariant=1)
    canvas.setTitle(title)
    canvas.setCreator("sudoku-batch")
    canvas.showOutline()
    pages = list(_pages(entries))
    for number, page in enumerate(pages or [[]]):
        heading = f"{title} ({number + 1}/{max(len(pages), 1)})"
        _page(canvas, page, page_size, heading, f"p{number}")
        canvas.showPage()
    canvas.save()
    return max(len(pages), 1)


def _pages(entries: Sequence[KeyEntry]) -> Iterator[list[KeyEntry]]:
    """Consecutive entries of one layout, as many as a page holds."""
    for layout, run in groupby(entries, key=lambda entry: layout_for(entry.size)):
        group = list(run)
        per_page = layout.columns * layout.rows
        for start in range(0, len(group), per_page):
            yield group[start : start + per_page]


@dataclass(frozen=True)
class Slot:
    """Where one entry goes, in points from the page's bottom left."""

    x: float
    top: float
    width: float
    height: float


def slots(page_size: tuple[float, float], layout: Layout) -> list[Slot]:
    width, height = page_size
    top = height - MARGIN - TITLE_SIZE * LEADING - GUTTER / 2
    slot_w = (width - 2 * MARGIN - (layout.columns - 1) * GUTTER) / layout.columns
    slot_h = (top - MARGIN - (layout.rows - 1) * GUTTER) / layout.rows
    return [
        Slot(MARGIN + c * (slot_w + GUTTER), top - r * (slot_h + GUTTER), slot_w, slot_h)
        for r in range(layout.rows)
        for c in range(layout.columns)
    ]


def _page(
    canvas: Canvas,
    entries: list[KeyEntry],
    page_size: tuple[float, float],
    heading: str,
    name: str,
) -> None:
    width, height = page_size
    canvas.setFont(BOLD, TITLE_SIZE)
    canvas.drawString(MARGIN, height - MARGIN - TITLE_SIZE, heading)
    if not entries:
        return
    places = slots(page_size, layout_for(entries[0].size))
    for k, (entry, slot) in enumerate(zip(entries, places, strict=False)):
        key = f"{name}e{k}"  # the outline entry's destination
        canvas.bookmarkHorizontal(key, slot.x, slot.top)
        canvas.addOutlineEntry(" - ".join(filter(None, (entry.title, entry.source))), key)
        _entry(canvas, entry, slot)


def caption_lines(entry: KeyEntry, width: float) -> tuple[tuple[str, str, float], ...]:
    """The caption as (text, font, size) lines, each at most ``width`` points wide: the title
    set smaller if need be, then shortened; the place wrapped to ``SOURCE_LINES`` lines, the
    last shortened in the middle (a path's end, the file and page, says most)."""
    _register_fonts()
    lines = [_fitted(entry.title, BOLD, NUMBER_SIZE, width)]
    if entry.caption:
        wrapped = simpleSplit(entry.caption, FONT, SOURCE_SIZE, width)
        if len(wrapped) > SOURCE_LINES:
            first = wrapped[: SOURCE_LINES - 1]
            rest = entry.caption[len(" ".join(first)) :].strip()
            wrapped = [*first, _shortened(rest, FONT, SOURCE_SIZE, width)]
        lines += [
            (_shortened(line, FONT, SOURCE_SIZE, width), FONT, SOURCE_SIZE) for line in wrapped
        ]
    return tuple(lines)


def caption_height() -> float:
    return (NUMBER_SIZE + SOURCE_LINES * SOURCE_SIZE) * LEADING + 2


def _fitted(text: str, font: str, size: float, width: float) -> tuple[str, str, float]:
    while size > MIN_TEXT and pdfmetrics.stringWidth(text, font, size) > width:
        size -= 0.5
    return _shortened(text, font, size, width), font, size


def _shortened(text: str, font: str, size: float, width: float) -> str:
    """The text, its middle replaced by an ellipsis until it is at most ``width`` wide."""
    if pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    keep = len(text)
    while keep > 0:
        keep -= 1
        head, tail = text[: (keep + 1) // 2], text[len(text) - keep // 2 :] if keep > 1 else ""
        short = f"{head}{ELLIPSIS}{tail}"
        if pdfmetrics.stringWidth(short, font, size) <= width:
            return short
    return ELLIPSIS


def grid_box(slot: Slot) -> tuple[float, float, float]:
    """The grid's left, bottom and side in a slot: under the caption, centred across."""
    side = min(slot.width, slot.height - caption_height())
    x = slot.x + (slot.width - side) / 2
    return x, slot.top - caption_height() - side, side


def _entry(canvas: Canvas, entry: KeyEntry, slot: Slot) -> None:
    x, bottom, side = grid_box(slot)
    y = slot.top
    for text, font, size in caption_lines(entry, slot.x + slot.width - x):
        y -= size * LEADING
        canvas.setFont(font, size)
        canvas.drawString(x, y, text)  # over the grid's left edge
    if entry.solution is None:
        canvas.setLineWidth(THIN)
        canvas.rect(x, bottom, side, side)
        note = _shortened(entry.note, FONT, NUMBER_SIZE, side - 4)
        canvas.setFont(FONT, NUMBER_SIZE)
        canvas.drawCentredString(x + side / 2, bottom + side / 2, note)
        return
    _grid(canvas, entry, x, bottom, side)


def _regions(
    canvas: Canvas, regions: tuple[tuple[int, ...], ...], x: float, top: float, step: float
) -> None:
    """Thin cell lines, then the region borders and the frame heavy over them."""
    n = len(regions)
    canvas.setLineWidth(THIN)
    for i in range(n + 1):
        canvas.line(x, top - i * step, x + n * step, top - i * step)
        canvas.line(x + i * step, top, x + i * step, top - n * step)
    canvas.setLineWidth(THICK)
    canvas.setLineCap(2)  # square ends, so that the borders' corners close
    for (r0, c0), (r1, c1) in region_borders(regions):
        canvas.line(x + c0 * step, top - r0 * step, x + c1 * step, top - r1 * step)
    canvas.setLineCap(0)


def _grid(canvas: Canvas, entry: KeyEntry, x: float, bottom: float, side: float) -> None:
    solution = entry.solution or ()
    n = len(solution)
    shape = entry.shape or GridShape.square(n)
    step = side / n
    top = bottom + side
    if entry.regions is None:
        for i in range(n + 1):
            canvas.setLineWidth(THICK if i % shape.box_rows == 0 else THIN)
            canvas.line(x, top - i * step, x + side, top - i * step)
            canvas.setLineWidth(THICK if i % shape.box_cols == 0 else THIN)
            canvas.line(x + i * step, bottom, x + i * step, top)
    else:
        _regions(canvas, entry.regions, x, top, step)
    if marks_diagonals(entry.variant):
        canvas.setLineWidth(THIN)
        for (r0, c0), (r1, c1) in diagonal_lines(n):
            canvas.line(x + c0 * step, top - r0 * step, x + c1 * step, top - r1 * step)
    texts = [[symbol_of(v, entry.symbols) if v else "" for v in row] for row in solution]
    widest = max((t for row in texts for t in row), key=len, default="")
    size = step * DIGIT_SHARE
    if widest:
        size = min(size, SYMBOL_WIDTH * step / pdfmetrics.stringWidth(widest, BOLD, 1))
    canvas.setFont(FONT, size)
    baseline = size * 0.36  # half a digit's height, so it sits in the cell's middle
    for r, row in enumerate(texts):
        for c, text in enumerate(row):
            if text:
                canvas.drawCentredString(
                    x + (c + 0.5) * step, top - (r + 0.5) * step - baseline, text
                )
