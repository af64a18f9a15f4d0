"""Boards whose cells further lines cross (``pipeline.vision.lattice.cell_parts``), per source:
on real Sudoku none may be, on other grids taken for a smaller square lattice (a calendar, a
table) they should be. Vision only, no OCR: every board the page finder keeps is measured, not
only those whose readings contradict (where ``recognise_board`` asks).

Run from the repository root:

    python -m bench.crossed_cells [--seeds 1 2 3 27]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from itertools import chain
from pathlib import Path

import numpy as np

from bench.recognition import DATASET
from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.pipeline.ingest.sources import expand_input, load_page
from sudoku_batch.pipeline.vision.lattice import cell_parts
from sudoku_batch.pipeline.vision.page_boards import rectify_page

BOOKS, HAND_FILLED = "books-dev", "kubiesa-train"


def real_pages() -> Iterator[tuple[str, np.ndarray]]:
    """Pages of real Sudoku only: printed photos, photos of puzzles filled in by hand with
    pencil marks, and the books' PDFs (puzzles and answers)."""
    root = shared_data_dir()
    for name, folder in (
        ("photos", root / DATASET / "images"),
        ("kubiesa", root / HAND_FILLED / "images"),
        ("books-dev", root / BOOKS / "pdf"),
    ):
        for source in expand_input(folder, name):
            yield name, load_page(source).pixels


def styled_pages() -> Iterator[tuple[str, np.ndarray]]:
    """A page of each print style of bench.styles, at 150 dpi and scanned."""
    from bench.styles import SETS, page_pixels

    for condition in ("150", "scan"):
        for name, styled in SETS.items():
            yield f"styles {condition}", page_pixels(name, styled, condition, 1)[0]


def mixed_pages(seeds: list[int], folder: Path) -> Iterator[tuple[str, np.ndarray]]:
    """The mixed synthetic books' pages, as their Sudoku pages (1 and 4) and other pages."""
    from sudoku_batch.synth.other_grids import mixed_book
    from sudoku_batch.synth.pdf import write_jpeg_pdf

    for seed in seeds:
        book = mixed_book(np.random.default_rng(seed))
        path = folder / f"mixed-{seed}.pdf"
        write_jpeg_pdf(path, iter(book.pages), 150)
        for source, kinds in zip(expand_input(path, path.name), book.kinds, strict=True):
            sudoku = set(kinds) <= {"puzzle", "answer"}
            yield ("mixed sudoku" if sudoku else "mixed other"), load_page(source).pixels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 27])
    parser.add_argument("--folder", type=Path, default=Path("/tmp/crossed_cells"))
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    boards: dict[str, int] = {}
    crossed: dict[str, list[str]] = {}
    pages = chain(real_pages(), styled_pages(), mixed_pages(args.seeds, args.folder))
    for name, pixels in pages:
        try:
            found = rectify_page(pixels)
        except SudokuBatchError:
            continue
        for rectified in found:
            board = rectified.board
            boards[name] = boards.get(name, 0) + 1
            parts = cell_parts(board.pixels, board.lattice)
            if parts > 1:
                size = board.shape.size
                crossed.setdefault(name, []).append(f"{size}x{size}/{parts}")
    print(f"{'source':<14}{'boards':>8}{'crossed':>9}  sizes/parts")
    for name, count in boards.items():
        cut = crossed.get(name, [])
        print(f"{name:<14}{count:>8}{len(cut):>9}  {' '.join(cut)}")


if __name__ == "__main__":
    main()
