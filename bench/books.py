"""Recognition on puzzle-book PDFs made by other people's software (shared/data/books-dev),
rendered by the project's own ingest and degraded by its own synth code, against exact truth.

Run from the repository root:
    python -m bench.books [--variants pdf,150,300,scan] [--every 1] [--failures]

Variants: ``pdf`` is the page as a job reads a PDF (ingest's default dpi); any number renders
at that dpi (``150`` and ``300`` by default; ``120`` and ``600`` are the ends of the range books
are printed to PDF or scanned at); ``scan`` renders at 200 dpi and scans it (a turn of up to 1.5
degrees, grey paper, mild blur, noise, JPEG 70); ``rough`` is a careless scan of the same
(``synth.degrade.ROUGH``: up to 4 degrees, darker paper, blur 1-1.5, JPEG 40). Each page goes
through ``rectify_page`` and ``recognise_board`` as a job's steps call them. Per generator and
variant it reports grids found, grids of the right size (and box shape), grids fully right, the
cell error over the grids of the right size, and CPU seconds per page and per grid (one core,
as a worker runs).

The truth has no positions, so found boards are matched to true grids by content: a board of
the right size goes to the grid whose givens it agrees with most; a board of another size to
the grid at its place in reading order (it was found, but measured wrong).
"""

from __future__ import annotations

import argparse
import json
import time
import zlib
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.errors import LatticeNotFound, NoGridFound
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.ingest.sources import (
    DEFAULT_PDF_DPI,
    PageSource,
    expand_input,
    load_page,
)
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth import degrade

DATASET = "books-dev"
VARIANTS = ("pdf", "150", "300", "scan")
# The scan of the issue: 200 dpi, then synth.degrade.scan.
SCAN_DPI = 200
SCANS = {"scan": degrade.FLATBED, "rough": degrade.ROUGH}


@dataclass(frozen=True)
class TrueGrid:
    index: int
    shape: GridShape
    givens: tuple[int, ...] = field(repr=False)


@dataclass(frozen=True)
class BookPage:
    file: str
    page: int
    generator: str
    grids: tuple[TrueGrid, ...]


@dataclass(frozen=True)
class Read:
    """One board as read: its shape and its givens row-major (0 empty, -1 blocked)."""

    shape: GridShape
    givens: tuple[int, ...] = field(repr=False)


@dataclass(frozen=True)
class PageResult:
    page: BookPage
    variant: str
    reads: tuple[Read, ...]
    # Per true grid: the matched board's index in ``reads`` or None.
    matched: tuple[int | None, ...]
    seconds: float
    error: str | None = None

    def grid_outcomes(self) -> Iterator[tuple[TrueGrid, Read | None]]:
        for grid, index in zip(self.page.grids, self.matched, strict=True):
            yield grid, None if index is None else self.reads[index]

    def fully_right(self) -> int:
        return sum(
            read is not None and read.shape == grid.shape and read.givens == grid.givens
            for grid, read in self.grid_outcomes()
        )


def load_pages(root: Path) -> list[BookPage]:
    by_page: dict[tuple[str, int], list[dict]] = defaultdict(list)
    with open(root / "manifest.jsonl") as handle:
        for line in handle:
            entry = json.loads(line)
            by_page[entry["file"], entry["page"]].append(entry)
    pages = []
    for (file, number), entries in by_page.items():
        grids = tuple(
            TrueGrid(
                e["index"],
                GridShape(*e["box"]),
                tuple(v for row in e["givens"] for v in row),
            )
            for e in sorted(entries, key=lambda e: e["index"])
        )
        pages.append(BookPage(file, number, entries[0]["generator"], grids))
    return pages


def page_source(root: Path, page: BookPage) -> PageSource:
    path = root / page.file
    for source in expand_input(path, label=str(path)):
        if source.page == page.page:
            return source
    raise LookupError(f"{page.file} has no page {page.page}")


def render(root: Path, page: BookPage, variant: str) -> np.ndarray:
    """The page's pixels for a variant, through the project's own ingest and synth code."""
    source = page_source(root, page)
    if variant == "pdf":
        return load_page(source).pixels
    if variant not in SCANS:
        return load_page(source, dpi=int(variant)).pixels
    pixels = load_page(source, dpi=SCAN_DPI).pixels
    # One scan per page, the same on every run.
    rng = np.random.default_rng(zlib.crc32(f"{page.file}:{page.page}".encode()))
    return degrade.scan(pixels, rng, SCANS[variant])


def read_page(pixels: np.ndarray, engine: OcrEngine) -> tuple[tuple[Read, ...], str | None]:
    """Every board on the page as the job's steps read it, or the page's failure."""
    try:
        boards = rectify_page(pixels)
    except (NoGridFound, LatticeNotFound) as failure:
        return (), type(failure).__name__
    reads = []
    for rectified in boards:
        recognised = recognise_board(rectified.board, rectified.cells, engine)
        givens = recognised.reading.givens()
        reads.append(
            Read(
                recognised.reading.shape,
                tuple(-1 if v is None else v for row in givens for v in row),
            )
        )
    return tuple(reads), None


def match(grids: Sequence[TrueGrid], reads: Sequence[Read]) -> tuple[int | None, ...]:
    """Each true grid's board (index into ``reads``), greedily by agreement (see the module
    docstring)."""
    pairs = []
    for i, grid in enumerate(grids):
        for j, read in enumerate(reads):
            if read.shape.size == grid.shape.size:
                agree = np.mean(np.array(read.givens) == np.array(grid.givens))
                pairs.append((1.0 + float(agree), i, j))
            elif i == j:
                pairs.append((0.5, i, j))
    matched: list[int | None] = [None] * len(grids)
    used: set[int] = set()
    for _, i, j in sorted(pairs, reverse=True):
        if matched[i] is None and j not in used:
            matched[i] = j
            used.add(j)
    return tuple(matched)


def run_page(root: Path, page: BookPage, variant: str, engine: OcrEngine) -> PageResult:
    pixels = render(root, page, variant)
    start = time.process_time()
    reads, error = read_page(pixels, engine)
    seconds = time.process_time() - start
    return PageResult(page, variant, reads, match(page.grids, reads), seconds, error)


def figures(results: Sequence[PageResult]) -> dict[str, float]:
    grids = found = sized = right = cells = wrong_cells = 0
    for result in results:
        for grid, read in result.grid_outcomes():
            grids += 1
            if read is None:
                continue
            found += 1
            if read.shape != grid.shape:
                continue
            sized += 1
            right += read.givens == grid.givens
            cells += len(grid.givens)
            wrong_cells += sum(a != b for a, b in zip(read.givens, grid.givens, strict=True))
    extra = sum(len(r.reads) - sum(m is not None for m in r.matched) for r in results)
    seconds = sum(r.seconds for r in results)
    return {
        "pages": len(results),
        "grids": grids,
        "found": found,
        "right size": sized,
        "wrong size": found - sized,
        "fully right": right,
        "fully right %": 100.0 * right / max(grids, 1),
        "cell error %": 100.0 * wrong_cells / max(cells, 1),
        "extra boards": extra,
        "s/page": seconds / max(len(results), 1),
        "s/grid": seconds / max(grids, 1),
    }


COLUMNS = (
    "grids",
    "found",
    "right size",
    "wrong size",
    "fully right",
    "fully right %",
    "cell error %",
    "extra boards",
    "s/page",
    "s/grid",
)


def table(results: Sequence[PageResult]) -> str:
    """A markdown table: per variant, each generator and all of them."""
    lines = [
        "| variant | generator | " + " | ".join(COLUMNS) + " |",
        "|---|---|" + "---:|" * len(COLUMNS),
    ]
    variants = list(dict.fromkeys(r.variant for r in results))
    for variant in variants:
        of_variant = [r for r in results if r.variant == variant]
        generators = sorted({r.page.generator for r in of_variant})
        for generator in [*generators, "all"]:
            chosen = [r for r in of_variant if generator in ("all", r.page.generator)]
            row = figures(chosen)
            cells = [_fmt(row[c]) for c in COLUMNS]
            lines.append(f"| {variant} | {generator} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def worse_at(results: Sequence[PageResult], high: str, low: str) -> list[str]:
    """Pages with fewer grids fully right at ``high`` than at ``low``."""
    right = {(r.page.file, r.page.page, r.variant): r.fully_right() for r in results}
    return [
        f"{file} p{page}"
        for (file, page, variant), count in right.items()
        if variant == high and count < right.get((file, page, low), -1)
    ]


def failures(results: Sequence[PageResult]) -> list[str]:
    lines = []
    for result in results:
        where = f"{result.variant} {result.page.file} p{result.page.page}"
        if result.error:
            lines.append(f"{where}: {result.error}")
        for grid, read in result.grid_outcomes():
            if read is None:
                lines.append(f"{where} grid {grid.index}: not found")
            elif read.shape != grid.shape:
                lines.append(f"{where} grid {grid.index}: read as {read.shape}")
            elif read.givens != grid.givens:
                wrong = [
                    f"r{k // grid.shape.size + 1}c{k % grid.shape.size + 1}:{b}->{a}"
                    for k, (a, b) in enumerate(zip(read.givens, grid.givens, strict=True))
                    if a != b
                ]
                lines.append(f"{where} grid {grid.index}: {len(wrong)} wrong {' '.join(wrong)}")
        extra = len(result.reads) - sum(m is not None for m in result.matched)
        if extra:
            lines.append(f"{where}: {extra} extra boards")
    return lines


def _fmt(value: float) -> str:
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--every", type=int, default=1, help="only every k-th page")
    parser.add_argument("--generator", default=None, help="only this generator")
    parser.add_argument("--failures", action="store_true", help="list the grids read wrong")
    args = parser.parse_args(argv)
    root = shared_data_dir() / DATASET
    if not root.is_dir():
        raise SystemExit(f"books-dev not found at {root} (set SUDOKU_BATCH_SHARED_DATA)")
    # Timings are per page on one core, as a worker process runs them.
    cv2.setNumThreads(1)
    engine = make_engine()
    pages = load_pages(root)[:: args.every]
    if args.generator:
        pages = [p for p in pages if p.generator == args.generator]
    variants = args.variants.split(",")
    results = [run_page(root, page, v, engine) for v in variants for page in pages]
    print(f"books-dev, {len(pages)} pages; pdf = {DEFAULT_PDF_DPI} dpi\n")
    print(table(results))
    if "150" in variants and "300" in variants:
        worse = worse_at(results, "300", "150")
        print(f"\npages worse at 300 than at 150 dpi: {len(worse)} {' '.join(worse)}")
    if args.failures:
        print("\n".join(failures(results)))


if __name__ == "__main__":
    main()
