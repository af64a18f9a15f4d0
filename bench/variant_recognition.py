"""Recognition of jigsaw and diagonal Sudoku (synth.variant_images) against exact truth:
regions, variant and givens, per source.

Run from the repository root:
    python -m bench.variant_recognition [--count 6] [--seed 1] [--sources a,b] [--classic]

Each source is ``--count`` images: phone-like photos of one grid, or scanned book pages of two
grids, plain or on coloured or grey fills. Images go through ``rectify_page`` and
``recognise_board`` as a job's steps call them. Per source: grids found, regions right,
variant right, givens right (every cell's given or blank and digit), both right, and how many
readings call their regions doubtful. ``--classic`` also reads the regions of every classic
board of the shared data (the development photos, books-dev as PDF and scanned, vision only):
how many read as classic, and how many of those are doubtful.
"""

from __future__ import annotations

import argparse
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from bench.books import load_pages, render
from bench.recognition import DATASET, load_samples, read_photo
from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.pipeline.geometry import CLASSIC, box_regions
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.pipeline.vision.regions import DOUBTFUL_BELOW, read_regions
from sudoku_batch.synth.variant_images import (
    NINE,
    VariantImage,
    random_variant,
    variant_page,
    variant_photo,
)

Maker = Callable[[np.random.Generator], VariantImage]


def _photo(variant: str, fills: str, region_lines: bool = True) -> Maker:
    return lambda rng: variant_photo(
        random_variant(rng, variant), rng, fills=fills, region_lines=region_lines
    )


def _page(variant: str, fills: str, shape: GridShape = NINE) -> Maker:
    return lambda rng: variant_page(
        [random_variant(rng, variant, shape), random_variant(rng, variant, shape)],
        rng,
        fills=fills,
    )


SOURCES: dict[str, Maker] = {
    "jigsaw-photo-plain": _photo("jigsaw", "none"),
    "jigsaw-photo-colour": _photo("jigsaw", "colour"),
    "jigsaw-page-grey": _page("jigsaw", "grey"),
    "jigsaw-page-colour": _page("jigsaw", "colour"),
    "jigsaw-6x6-page-colour": _page("jigsaw", "colour", GridShape(2, 3)),
    "diagonal-photo": _photo("diagonal", "none"),
    "diagonal-page-colour": _page("diagonal", "colour"),
    "jigsaw+diagonal-photo": _photo("jigsaw+diagonal", "colour"),
    "jigsaw-photo-fills-only": _photo("jigsaw", "colour", region_lines=False),
    "classic-photo-colour": _photo("classic", "colour"),
}


def score(image: VariantImage, engine: OcrEngine) -> Counter:
    """The counts for one image, its grids matched to the boards read in reading order."""
    counts: Counter = Counter(grids=len(image.grids))
    try:
        boards = rectify_page(image.image)
    except SudokuBatchError:
        return counts
    for found, truth in zip(boards, image.truth(), strict=False):
        reading = recognise_board(found.board, found.cells, engine).reading
        counts["found"] += 1
        shape = reading.shape
        read_as = shape.regions or box_regions(shape.box_rows, shape.box_cols)
        regions = read_as == tuple(tuple(row) for row in truth["regions"])
        givens = [list(row) for row in reading.givens()] == truth["givens"]
        counts["regions right"] += regions
        counts["variant right"] += shape.variant == truth["variant"]
        counts["givens right"] += givens
        counts["both right"] += regions and givens
        counts["doubtful"] += (reading.regions_certainty or 0.0) < DOUBTFUL_BELOW
    return counts


COLUMNS = (
    "grids",
    "found",
    "regions right",
    "variant right",
    "givens right",
    "both right",
    "doubtful",
)


def classic_sources() -> dict[str, Iterator[np.ndarray]]:
    """The shared data's classic pages, per source."""
    root = shared_data_dir()
    photos = (read_photo(sample.path) for sample in load_samples(root / DATASET))
    books = root / "books-dev"
    pages = load_pages(books)
    return {
        "photos": photos,
        "books-dev pdf": (render(books, page, "pdf") for page in pages),
        "books-dev scan": (render(books, page, "scan") for page in pages),
    }


def classic_counts(pages: Iterator[np.ndarray]) -> Counter:
    counts: Counter = Counter()
    for pixels in pages:
        try:
            boards = rectify_page(pixels)
        except SudokuBatchError:
            continue
        for found in boards:
            read = read_regions(found.board)
            counts["boards"] += 1
            counts["classic"] += read.variant == CLASSIC
            counts["doubtful"] += read.certainty < DOUBTFUL_BELOW
    return counts


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sources", default=",".join(SOURCES))
    parser.add_argument("--classic", action="store_true")
    args = parser.parse_args(argv)
    engine = make_engine("ppocr-onnx")
    print(f"{'source':24}" + "".join(f"{c:>15}" for c in COLUMNS))
    start = time.perf_counter()
    for name in args.sources.split(","):
        rng = np.random.default_rng([args.seed, zlib.crc32(name.encode())])
        total: Counter = Counter()
        for _ in range(args.count):
            total += score(SOURCES[name](rng), engine)
        print(f"{name:24}" + "".join(f"{total[c]:>15}" for c in COLUMNS))
    if args.classic:
        print(f"\n{'classic source':24}{'boards':>15}{'classic':>15}{'doubtful':>15}")
        for name, pages in classic_sources().items():
            counts = classic_counts(pages)
            print(
                f"{name:24}"
                + "".join(f"{counts[c]:>15}" for c in ("boards", "classic", "doubtful"))
            )
    print(f"\n{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
