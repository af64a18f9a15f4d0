"""Scanned-book-like PDFs of Sudoku pages, with truth.json.

    python -m sudoku_batch.synth.book OUT_DIR --pages 50 --seed 1 [--dpi 150]

writes OUT_DIR/book.pdf (one JPEG image per page) and OUT_DIR/truth.json (see synth.truth).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth import degrade
from sudoku_batch.synth.fonts import available_fonts, load_font
from sudoku_batch.synth.grid_image import odd, render_grid
from sudoku_batch.synth.pdf import write_jpeg_pdf
from sudoku_batch.synth.puzzles import GeneratedPuzzle, random_puzzle
from sudoku_batch.synth.truth import PlacedGrid, page_truth, write_truth

PAGE_MM = (210.0, 297.0)  # A4
BOOK_SHAPES = (
    GridShape(2, 2),
    GridShape(2, 3),
    GridShape(2, 4),
    GridShape(3, 3),
    GridShape(3, 4),
    GridShape(4, 4),
)
SHAPE_WEIGHTS = (0.1, 0.15, 0.1, 0.4, 0.12, 0.13)
# Rows x columns of puzzle slots for each number of puzzles on a page; five use six slots.
SLOTS = {1: (1, 1), 2: (2, 1), 3: (3, 1), 4: (2, 2), 5: (3, 2), 6: (3, 2)}
TITLES = ("Sudoku", "Number Place", "Classic Sudoku", "Sudoku Challenge", "Logic Puzzles")
LEVELS = ("Easy", "Medium", "Hard", "Expert")
SHADES_RGB = ((225, 225, 225), (205, 205, 205), (255, 232, 200), (212, 232, 255), (220, 245, 215))
PAPER_RGB = (255, 255, 255)
TEXT_RGB = (30, 30, 30)


@dataclass(frozen=True)
class Page:
    """A clean book page (BGR) and its grids in reading order."""

    image: np.ndarray = field(repr=False)
    grids: tuple[PlacedGrid, ...]


@dataclass(frozen=True)
class ScannedPage:
    """A page as the scanner saved it: JPEG bytes and the grids' truth in its pixels."""

    jpeg: bytes = field(repr=False)
    width: int
    height: int
    grids: tuple[PlacedGrid, ...]


@dataclass(frozen=True)
class ScanStyle:
    """How rough the scan may be; each effect is drawn uniformly between none and its limit."""

    max_rotation_deg: float = 2.5
    max_blur_sigma: float = 1.0
    max_noise_sigma: float = 4.0
    max_light_falloff: float = 0.25
    max_specks: int = 300
    jpeg_quality: tuple[int, int] = (45, 85)


def page_size_px(dpi: int) -> tuple[int, int]:
    """A4 to the nearest pixel counts that are whole PDF points too, so that rendering the PDF
    at ``dpi`` gives back exactly these pixels (595.2 pt comes back as 1241 px, not 1240)."""
    step = dpi // math.gcd(dpi, 72)
    return tuple(round(mm / 25.4 * dpi / step) * step for mm in PAGE_MM)


def random_book_puzzles(
    rng: np.random.Generator, shape: GridShape | None = None
) -> list[GeneratedPuzzle]:
    """One to six puzzles, about half empty, some with blocked cells: all of ``shape`` if
    given (a publisher's 9x9 book), else of mixed sizes."""
    puzzles = []
    only = shape
    for _ in range(rng.integers(1, 7)):
        shape = only or BOOK_SHAPES[rng.choice(len(BOOK_SHAPES), p=SHAPE_WEIGHTS)]
        cells = shape.size**2
        blocked = int(rng.integers(1, shape.size // 2 + 1)) if rng.random() < 0.15 else 0
        holes = int((cells - blocked) * rng.uniform(0.45, 0.7))
        puzzles.append(random_puzzle(shape, rng, holes=holes, blocked=blocked))
    return puzzles


def random_shading(shape: GridShape, rng: np.random.Generator) -> frozenset[tuple[int, int]]:
    """No shading, alternate boxes shaded (a common print style), or scattered cells."""
    n, style = shape.size, rng.choice(["none", "none", "boxes", "cells"])
    cells = [(r, c) for r in range(n) for c in range(n)]
    if style == "boxes":
        return alternate_boxes(shape)
    if style == "cells":
        return frozenset(cell for cell in cells if rng.random() < 0.12)
    return frozenset()


def alternate_boxes(shape: GridShape) -> frozenset[tuple[int, int]]:
    """The cells of every other box, chequered."""
    n = shape.size
    return frozenset(
        (r, c)
        for r in range(n)
        for c in range(n)
        if (r // shape.box_rows + c // shape.box_cols) % 2
    )


def draw_page(
    puzzles: Sequence[GeneratedPuzzle],
    rng: np.random.Generator,
    *,
    number: int,
    dpi: int = 150,
    first_puzzle: int = 1,
    fonts: Sequence[Path] | None = None,
) -> Page:
    """Lay out ``puzzles`` (1-6) on a clean A4 page with a title, labels and a page number,
    in faces drawn from ``fonts`` (default: every one installed, ``synth.fonts``)."""
    width, height = page_size_px(dpi)
    page = Image.new("RGB", (width, height), PAPER_RGB)
    draw = ImageDraw.Draw(page)
    fonts = available_fonts() if fonts is None else tuple(fonts)
    text_font = fonts[rng.integers(len(fonts))]
    margin_x, top, bottom = 0.08 * width, 0.1 * height, 0.93 * height
    title = load_font(text_font, round(0.022 * height))
    draw.text((width / 2, 0.05 * height), str(rng.choice(TITLES)), TEXT_RGB, title, anchor="mm")
    small = load_font(text_font, round(0.011 * height))
    draw.text((width / 2, 0.96 * height), f"- {number} -", TEXT_RGB, small, anchor="mm")

    rows, cols = SLOTS[len(puzzles)]
    slot_w, slot_h = (width - 2 * margin_x) / cols, (bottom - top) / rows
    label_h = 2 * small.size
    grids = []
    for k, generated in enumerate(puzzles):
        shape = generated.puzzle.shape
        side = min(0.92 * slot_w, slot_h - label_h - 0.04 * slot_h) * rng.uniform(0.75, 1.0)
        cell_px = int(side / shape.size)
        thick = odd(cell_px * rng.uniform(1 / 14, 1 / 8))
        labels = "letters" if shape.size > 9 and rng.random() < 0.5 else "numbers"
        rendered = render_grid(
            generated.puzzle,
            cell_px=cell_px,
            font=fonts[rng.integers(len(fonts))].name,
            labels=labels,
            shaded=random_shading(shape, rng),
            shade_rgb=SHADES_RGB[rng.integers(len(SHADES_RGB))],
            thin_px=odd(max(1.0, cell_px * rng.uniform(1 / 50, 1 / 25))),
            thick_px=thick,
            margin_px=thick,
            rng=rng,
        )
        size = rendered.image.shape[0]
        slot_x = margin_x + (k % cols) * slot_w
        slot_y = top + (k // cols) * slot_h
        x0 = int(slot_x + (slot_w - size) / 2)
        y0 = int(slot_y + label_h + (slot_h - label_h - size) / 2)
        page.paste(Image.fromarray(rendered.image[:, :, ::-1]), (x0, y0))
        label = f"Puzzle {first_puzzle + k}   {rng.choice(LEVELS)}"
        draw.text((x0 + thick, y0 - 0.4 * label_h), label, TEXT_RGB, small, anchor="ls")
        corners = rendered.corners + np.array([x0, y0], np.float32)
        grids.append(PlacedGrid(generated, corners, rendered.shaded, rendered.font, labels))
    return Page(np.ascontiguousarray(np.asarray(page)[:, :, ::-1]), tuple(grids))


def scan(page: Page, rng: np.random.Generator, style: ScanStyle = ScanStyle()) -> ScannedPage:
    """Scan a clean page: slight rotation, uneven light, blur, specks, noise, JPEG."""
    height, width = page.image.shape[:2]
    angle = rng.uniform(-style.max_rotation_deg, style.max_rotation_deg)
    image, matrix = degrade.rotate(page.image, angle)
    image = degrade.uneven_light(image, rng, rng.uniform(0, style.max_light_falloff))
    image = degrade.speckle(image, rng, int(rng.integers(0, style.max_specks + 1)))
    image = degrade.blur(image, rng.uniform(0, style.max_blur_sigma))
    image = degrade.sensor_noise(image, rng, rng.uniform(0, style.max_noise_sigma))
    quality = int(rng.integers(*style.jpeg_quality, endpoint=True))
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    grids = tuple(g.moved(degrade.move_points(g.corners, matrix)) for g in page.grids)
    return ScannedPage(jpeg.tobytes(), width, height, grids)


def random_book(
    rng: np.random.Generator,
    pages: int,
    *,
    dpi: int = 150,
    style: ScanStyle = ScanStyle(),
    shape: GridShape | None = None,
) -> Iterator[ScannedPage]:
    """``pages`` scanned pages of random puzzles (all of ``shape`` if given), numbered from 1,
    puzzles numbered across."""
    first_puzzle = 1
    for number in range(1, pages + 1):
        puzzles = random_book_puzzles(rng, shape)
        page = draw_page(puzzles, rng, number=number, dpi=dpi, first_puzzle=first_puzzle)
        first_puzzle += len(puzzles)
        yield scan(page, rng, style)


def write_book(
    out_dir: Path, pages: Iterable[ScannedPage], *, dpi: int, name: str = "book.pdf"
) -> dict:
    """Write ``pages`` as OUT_DIR/``name``; returns the file's truth (see synth.truth)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    truth: list[dict] = []

    def jpegs() -> Iterator[tuple[bytes, int, int]]:
        for number, page in enumerate(pages, start=1):
            truth.append(page_truth(number, page.width, page.height, page.grids))
            yield page.jpeg, page.width, page.height

    write_jpeg_pdf(out_dir / name, jpegs(), dpi)
    return {"dpi": dpi, "pages": truth}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m sudoku_batch.synth.book", description=__doc__)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dpi", type=int, default=150)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    truth = write_book(args.out_dir, random_book(rng, args.pages, dpi=args.dpi), dpi=args.dpi)
    write_truth(args.out_dir / "truth.json", {"book.pdf": truth})
    grids = sum(len(p["grids"]) for p in truth["pages"])
    print(f"wrote {args.out_dir / 'book.pdf'}: {len(truth['pages'])} pages, {grids} grids")


if __name__ == "__main__":
    main()
