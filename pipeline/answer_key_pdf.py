"""An answer-key PDF: solutions laid out several per page, each under its puzzle's number.

Drawn with Pillow (already a dependency) at 150 dpi on A4 or Letter and saved as one multi-page
PDF; pages hold ``columns * rows`` grids (2 x 3 by default, a common answer-page layout).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pipeline.grid import Grid, GridShape

DPI = 150
PAGE_SIZES_INCHES = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}


@dataclass(frozen=True)
class KeyEntry:
    label: str  # printed above the grid, e.g. the puzzle number
    solution: Grid
    shape: GridShape | None = None  # box shape; the conventional one for the size when None


def write_answer_key_pdf(
    entries: list[KeyEntry],
    path: Path,
    paper: str = "a4",
    columns: int = 2,
    rows: int = 3,
    title: str = "Solutions",
) -> int:
    """Write the PDF and return its page count (one blank titled page when there are no
    entries, so the file is always a valid PDF)."""
    width_in, height_in = PAGE_SIZES_INCHES[paper]
    size = (int(width_in * DPI), int(height_in * DPI))
    per_page = columns * rows
    pages = [
        _page(entries[i : i + per_page], size, columns, rows, title)
        for i in range(0, max(len(entries), 1), per_page)
    ]
    pages[0].save(path, "PDF", resolution=DPI, save_all=True, append_images=pages[1:])
    return len(pages)


def _font(px: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=px)
    except TypeError:  # Pillow < 10.1 has no sized default font
        return ImageFont.load_default()


def _page(entries, size, columns, rows, title) -> Image.Image:
    page = Image.new("L", size, 255)
    draw = ImageDraw.Draw(page)
    margin = DPI // 2
    draw.text((margin, margin // 2), title, fill=0, font=_font(DPI // 5))
    top = margin + DPI // 4
    cell_w = (size[0] - 2 * margin) // columns
    cell_h = (size[1] - top - margin) // rows
    for k, entry in enumerate(entries):
        x0 = margin + (k % columns) * cell_w
        y0 = top + (k // columns) * cell_h
        side = min(cell_w, cell_h - DPI // 4) - DPI // 5
        draw.text((x0, y0), entry.label, fill=0, font=_font(DPI // 7))
        _grid(draw, entry, x0, y0 + DPI // 5, side)
    return page


def _grid(draw: ImageDraw.ImageDraw, entry: KeyEntry, x0: int, y0: int, side: int) -> None:
    n = len(entry.solution)
    shape = entry.shape or GridShape.square(n)
    step = side / n
    font = _font(max(8, int(step * 0.6)))
    for i in range(n + 1):
        thick = 3 if i % shape.box_rows == 0 else 1
        y = y0 + i * step
        draw.line([(x0, y), (x0 + side, y)], fill=0, width=thick)
        thick = 3 if i % shape.box_cols == 0 else 1
        x = x0 + i * step
        draw.line([(x, y0), (x, y0 + side)], fill=0, width=thick)
    for r, row in enumerate(entry.solution):
        for c, value in enumerate(row):
            if value:
                text = str(value) if value < 10 else chr(ord("A") + value - 10)
                cx, cy = x0 + (c + 0.5) * step, y0 + (r + 0.5) * step
                draw.text((cx, cy), text, fill=0, font=font, anchor="mm")
