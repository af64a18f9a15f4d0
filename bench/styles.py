"""Recognition on pages in other publishers' print styles (synth.styles), alone and combined,
at the resolutions and scans books come in, against exact truth.

Run from the repository root:
    python -m bench.styles [--styles a,b] [--conditions 150,300,scan] [--pages 2] [--failures]

Each style is a page (or ``--pages`` pages) of grids drawn by ``synth.styles.styled_page``;
each condition renders it at a dpi (a number) or at 200 dpi scanned (``scan``: a flatbed,
``rough``: a careless one, see ``synth.degrade``). Pages go through ``rectify_page`` and
``recognise_board`` as a job's steps call them, and are scored as ``bench.books`` scores
books-dev (per condition and style: grids found, of the right size, fully right, cell error).
"""

from __future__ import annotations

import argparse
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from bench.books import SCANS, BookPage, PageResult, TrueGrid, failures, match, read_page, table
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.synth import degrade
from sudoku_batch.synth.styles import HAIRLINE_FONT_TOP, PrintStyle, random_puzzles, styled_page

SCAN_DPI = 200
NINE = GridShape(3, 3)
SIXTEEN = GridShape(4, 4)


@dataclass(frozen=True)
class StyledSet:
    style: PrintStyle
    shape: GridShape = NINE
    count: int = 4
    columns: int = 2
    fill: float = 0.4


# Grey hairline cells, dashed; grey 1 pt box lines; alternate boxes shaded.
GREY_DASHED_SHADED = PrintStyle(
    thin_pt=0.3, thick_pt=1.0, line_grey=110, shaded_boxes=True, dashed=True
)

# Each style, and the combinations the issue names, in type synth.book never uses among them.
SETS = {
    "hairline-grey": StyledSet(PrintStyle(thin_pt=0.3, thick_pt=0.3, line_grey=150)),
    "shaded-hairline": StyledSet(
        PrintStyle(thin_pt=0.3, thick_pt=0.3, line_grey=110, shaded_boxes=True)
    ),
    "dashed": StyledSet(PrintStyle(thin_pt=0.5, thick_pt=1.5, dashed=True)),
    "grey-dashed-shaded-right": StyledSet(
        replace(GREY_DASHED_SHADED, align="right", digit_scale=0.7)
    ),
    "grey-shaded-top-light": StyledSet(HAIRLINE_FONT_TOP),
    "doubled-boxes": StyledSet(PrintStyle(thin_pt=0.5, thick_pt=3.0, doubled=True)),
    "doubled-grey-shaded": StyledSet(
        PrintStyle(thin_pt=0.3, thick_pt=2.0, line_grey=100, shaded_boxes=True, doubled=True)
    ),
    "oversized": StyledSet(PrintStyle(thin_pt=1.0, thick_pt=3.0, digit_scale=2.2)),
    "oversized-bold": StyledSet(
        PrintStyle(thin_pt=1.0, thick_pt=3.0, digit_scale=1.8, font="DejaVuSansMono-Bold.ttf")
    ),
    "italic-shaded": StyledSet(
        PrintStyle(thin_pt=0.5, thick_pt=2.0, shaded_boxes=True, font="DejaVuSerif-Italic.ttf")
    ),
    "oblique-dashed": StyledSet(
        PrintStyle(thin_pt=0.5, thick_pt=1.5, dashed=True, font="DejaVuSans-Oblique.ttf")
    ),
    "16-letters-grey-dashed-shaded": StyledSet(
        replace(GREY_DASHED_SHADED, labels="letters", font="DejaVuSerifCondensed.ttf"),
        SIXTEEN,
        count=1,
        columns=1,
        fill=0.5,
    ),
    "16-numbers-right-hairline": StyledSet(
        PrintStyle(thin_pt=0.3, thick_pt=1.0, line_grey=100, align="right", digit_scale=0.8),
        SIXTEEN,
        count=1,
        columns=1,
        fill=0.5,
    ),
}
CONDITIONS = ("150", "300", "scan")


def page_pixels(name: str, styled: StyledSet, condition: str, number: int) -> tuple:
    """A page of the set's grids under a condition, and their truth. The puzzles depend on the
    set and page number only, so every condition shows the same grids."""
    seed = zlib.crc32(f"{name}:{number}".encode())
    rng = np.random.default_rng(seed)
    puzzles = random_puzzles(styled.shape, styled.count, rng, styled.fill)
    dpi = SCAN_DPI if condition in SCANS else int(condition)
    page = styled_page(puzzles, styled.style, dpi=dpi, columns=styled.columns, rng=rng)
    pixels = page.image
    if condition in SCANS:
        pixels = degrade.scan(pixels, np.random.default_rng(seed), SCANS[condition])
    truth = tuple(
        TrueGrid(k, styled.shape, tuple(v for row in g.generated.puzzle.givens for v in row))
        for k, g in enumerate(page.grids)
    )
    return pixels, truth


def run(name: str, styled: StyledSet, condition: str, number: int, engine: OcrEngine) -> PageResult:
    pixels, truth = page_pixels(name, styled, condition, number)
    start = time.process_time()
    reads, error = read_page(pixels, engine)
    seconds = time.process_time() - start
    page = BookPage(name, number, name, truth)
    return PageResult(page, condition, reads, match(truth, reads), seconds, error)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--styles", default=",".join(SETS))
    parser.add_argument("--conditions", default=",".join(CONDITIONS))
    parser.add_argument("--pages", type=int, default=1, help="pages per style and condition")
    parser.add_argument("--failures", action="store_true", help="list the grids read wrong")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    engine = make_engine()
    results = [
        run(name, SETS[name], condition, number, engine)
        for condition in args.conditions.split(",")
        for name in args.styles.split(",")
        for number in range(1, args.pages + 1)
    ]
    print(table(results))
    if args.failures:
        print("\n".join(failures(results)))


if __name__ == "__main__":
    main()
