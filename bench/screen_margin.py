"""How far printed givens sit above the halftone test of ``pipeline.vision.cells``
(``SCREEN_SHARE``), per source: the cells sorted as givens with the test off that it would
drop at higher shares. A source that drops none at a share well above ``SCREEN_SHARE`` keeps
its print with that margin. Vision only, no OCR.

Run from the repository root:

    python -m bench.screen_margin [--photos 60] [--every 6]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator

import numpy as np

from bench.books import DATASET as BOOKS
from bench.books import load_pages, render
from bench.recognition import DATASET as PHOTOS
from bench.recognition import load_samples, read_photo
from bench.shared_data import shared_data_dir
from bench.styles import SETS, page_pixels
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.pipeline.vision import cells
from sudoku_batch.pipeline.vision.page_boards import rectify_page

SHARES = (0.6, 0.7, 0.8, 0.9)


def pages(photos: int, every: int) -> Iterator[tuple[str, np.ndarray]]:
    for name, styled in SETS.items():
        for condition in ("150", "300", "scan"):
            yield f"styles {condition}", page_pixels(name, styled, condition, 1)[0]
    root = shared_data_dir()
    for page in load_pages(root / BOOKS)[::every]:
        for variant in ("pdf", "scan"):
            yield f"books-dev {variant}", render(root / BOOKS, page, variant)
    for sample in load_samples(root / PHOTOS, photos):
        yield "photos", read_photo(sample.path)


def givens(board, share: float) -> int:
    cells.SCREEN_SHARE = share
    return sum(cell.kind is CellKind.GIVEN for cell in cells.classify_cells(board))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=60, help="development photos to read")
    parser.add_argument("--every", type=int, default=6, help="only every k-th books-dev page")
    args = parser.parse_args()
    default = cells.SCREEN_SHARE
    tallies: dict[str, Counter] = {}
    for source, pixels in pages(args.photos, args.every):
        try:
            boards = rectify_page(pixels)
        except SudokuBatchError:
            continue
        tally = tallies.setdefault(source, Counter())
        for rectified in boards:
            without = givens(rectified.board, 0.0)
            tally["boards"] += 1
            tally["givens"] += without
            for share in SHARES:
                tally[share] += without - givens(rectified.board, share)
    cells.SCREEN_SHARE = default
    print(f"givens dropped by the halftone test at each share (default {default})")
    print("| source | boards | givens (test off) | " + " | ".join(map(str, SHARES)) + " |")
    print("|---|---:|---:|" + "---:|" * len(SHARES))
    for source, tally in tallies.items():
        dropped = " | ".join(str(tally[share]) for share in SHARES)
        print(f"| {source} | {tally['boards']} | {tally['givens']} | {dropped} |")


if __name__ == "__main__":
    main()
