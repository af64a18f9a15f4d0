"""Phantom givens (empty cells read as digits) and lost givens (printed givens read as empty),
per photo source and, for the synthetic photos, per style (``synth.phantom_styles``).

Run from the repository root:
    python -m bench.phantom_givens [--sources photos,synth,held_out,books] [--photos 160]
        [--count 6] [--seed 1] [--every 4] [--failures]

Sources: ``photos`` are the real phone photos of shared/data/wichtounet-v2-train (the first
``--photos``); ``synth`` draws ``--count`` photos of each phantom-prone style; ``held_out``
as many of each style of ``synth.held_out_styles``, which no threshold was set on; ``books`` renders
every ``--every``-th page of shared/data/books-dev as a PDF and as a flatbed scan. Every image
goes through ``rectify_page`` and ``recognise_board`` as a job's steps call them; boards are
matched to true grids by content (``bench.books.match``). Per source (and style): grids, grids
found, grids fully right, empty cells, phantom givens and the grids holding any, givens, and
givens lost or read as another digit.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from bench.books import DATASET as BOOKS
from bench.books import SCANS, TrueGrid, load_pages, match, read_page, render
from bench.recognition import DATASET as PHOTOS
from bench.recognition import load_samples, read_photo
from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.synth.hard_photos import HardPhoto
from sudoku_batch.synth.held_out_styles import HELD_OUT_STYLES
from sudoku_batch.synth.phantom_styles import STYLES

NINE = GridShape(3, 3)


@dataclass
class Tally:
    grids: int = 0
    found: int = 0
    right: int = 0
    empty: int = 0
    phantoms: int = 0
    phantom_grids: int = 0
    givens: int = 0
    lost: int = 0
    misread: int = 0

    def add(self, truth: TrueGrid, read: tuple[int, ...] | None) -> list[int]:
        """Counts one true grid against its reading (None: not found); the phantom cells'
        indices."""
        self.grids += 1
        true = np.array(truth.givens)
        self.empty += int(np.count_nonzero(true == 0))
        self.givens += int(np.count_nonzero(true > 0))
        if read is None:
            return []
        got = np.array(read)
        self.found += 1
        self.right += bool(np.array_equal(got, true))
        phantoms = np.flatnonzero((true == 0) & (got > 0))
        self.phantoms += phantoms.size
        self.phantom_grids += bool(phantoms.size)
        self.lost += int(np.count_nonzero((true > 0) & (got <= 0)))
        self.misread += int(np.count_nonzero((true > 0) & (got > 0) & (got != true)))
        return phantoms.tolist()


@dataclass(frozen=True)
class Image:
    source: str
    style: str
    name: str
    pixels: np.ndarray
    truth: tuple[TrueGrid, ...]


def photo_images(count: int) -> Iterator[Image]:
    root = shared_data_dir() / PHOTOS
    if not root.is_dir():
        print(f"(photos: {root} not found; set SUDOKU_BATCH_SHARED_DATA)")
        return
    for sample in load_samples(root, count):
        truth = (TrueGrid(0, NINE, sample.givens),)
        yield Image("photos", "wichtounet", sample.name, read_photo(sample.path), truth)


def synth_images(
    count: int, seed: int, styles: dict[str, Callable[[np.random.Generator], HardPhoto]] = STYLES
) -> Iterator[Image]:
    source = "held_out" if styles is HELD_OUT_STYLES else "synth"
    for style, make in styles.items():
        rng = np.random.default_rng(seed)
        for k in range(count):
            photo = make(rng)
            truth = tuple(
                TrueGrid(i, p.shape, tuple(v or 0 for row in p.givens for v in row))
                for i, p in enumerate(photo.puzzles)
            )
            yield Image(source, style, f"{style}-{k}", photo.image, truth)


def book_images(every: int) -> Iterator[Image]:
    root = shared_data_dir() / BOOKS
    if not root.is_dir():
        print(f"(books: {root} not found; set SUDOKU_BATCH_SHARED_DATA)")
        return
    for variant in ("pdf", *SCANS):
        if variant == "rough":
            continue
        for page in load_pages(root)[::every]:
            name = f"{page.file}:{page.page}"
            yield Image("books", variant, name, render(root, page, variant), page.grids)


def judge(image: Image, engine: OcrEngine, tally: Tally) -> list[str]:
    """Reads one image into the tally; a line for each grid read wrong."""
    reads, error = read_page(image.pixels, engine)
    lines = []
    for grid, index in zip(image.truth, match(image.truth, reads), strict=True):
        read = None if index is None else reads[index]
        givens = read.givens if read is not None and read.shape == grid.shape else None
        phantoms = tally.add(grid, givens)
        if givens is None:
            lines.append(f"{image.name} grid {grid.index}: not found ({error or 'no match'})")
        elif givens != grid.givens:
            n = grid.shape.size
            where = " ".join(f"r{i // n + 1}c{i % n + 1}" for i in phantoms)
            lines.append(f"{image.name} grid {grid.index}: phantoms {where or '-'}")
    return lines


def table(tallies: dict[tuple[str, str], Tally]) -> str:
    rows = [
        "| source | style | grids | found | fully right | empty cells | phantom givens "
        "| grids with phantoms | givens | lost | misread |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (source, style), t in tallies.items():
        rows.append(
            f"| {source} | {style} | {t.grids} | {t.found} | {t.right} | {t.empty} "
            f"| {t.phantoms} | {t.phantom_grids} | {t.givens} | {t.lost} | {t.misread} |"
        )
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", default="photos,synth,books")
    parser.add_argument("--photos", type=int, default=160, help="real photos to read")
    parser.add_argument("--count", type=int, default=6, help="synthetic photos per style")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=4, help="only every k-th books-dev page")
    parser.add_argument("--failures", action="store_true", help="list the grids read wrong")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    engine = make_engine()
    makers = {
        "photos": lambda: photo_images(args.photos),
        "synth": lambda: synth_images(args.count, args.seed),
        "held_out": lambda: synth_images(args.count, args.seed, HELD_OUT_STYLES),
        "books": lambda: book_images(args.every),
    }
    tallies: dict[tuple[str, str], Tally] = {}
    wrong: list[str] = []
    for source in args.sources.split(","):
        for image in makers[source]():
            tally = tallies.setdefault((image.source, image.style), Tally())
            wrong += judge(image, engine, tally)
    print(table(tallies))
    if args.failures:
        print("\n".join(wrong))


if __name__ == "__main__":
    main()
