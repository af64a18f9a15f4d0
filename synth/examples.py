"""Write the project's example inputs with their truth:

    python -m sudoku_batch.synth.examples examples/

photo.jpg (a phone-photo-like 9x9), book.pdf (page 1: a 9x9; page 2: a 9x9 and a 6x6) and
truth.json (see synth.truth). Every puzzle has exactly one solution.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth.book import draw_page, scan, write_book
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.photo import PhotoStyle, photograph
from sudoku_batch.synth.truth import PlacedGrid, page_truth, write_truth
from sudoku_batch.synth.unique import unique_puzzle

SEED = 20261121
NINE, SIX = GridShape(3, 3), GridShape(2, 3)


def write_photo(out_dir: Path, rng: np.random.Generator) -> dict:
    generated = unique_puzzle(NINE, rng, givens=28)
    rendered = render_grid(generated.puzzle, cell_px=56, rng=rng)
    photo = photograph(rendered.image, rendered.corners, rng, PhotoStyle(max_tilt=0.06))
    cv2.imwrite(str(out_dir / "photo.jpg"), photo.image, [cv2.IMWRITE_JPEG_QUALITY, 88])
    grid = PlacedGrid(generated, photo.corners, rendered.shaded, rendered.font, rendered.labels)
    height, width = photo.image.shape[:2]
    return {"dpi": None, "pages": [page_truth(1, width, height, (grid,))]}


def write_example_book(out_dir: Path, rng: np.random.Generator, dpi: int = 150) -> dict:
    pages = [
        [unique_puzzle(NINE, rng, givens=26)],
        [unique_puzzle(NINE, rng, givens=30), unique_puzzle(SIX, rng, givens=12)],
    ]
    scanned, first = [], 1
    for number, puzzles in enumerate(pages, start=1):
        page = draw_page(puzzles, rng, number=number, dpi=dpi, first_puzzle=first)
        scanned.append(scan(page, rng))
        first += len(puzzles)
    return write_book(out_dir, scanned, dpi=dpi)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m sudoku_batch.synth.examples", description=__doc__
    )
    parser.add_argument("out_dir", type=Path)
    args = parser.parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED)
    truth = {"photo.jpg": write_photo(args.out_dir, rng)}
    truth["book.pdf"] = write_example_book(args.out_dir, rng)
    write_truth(args.out_dir / "truth.json", truth)
    print(f"wrote photo.jpg, book.pdf and truth.json to {args.out_dir}")


if __name__ == "__main__":
    main()
