"""Grid finding and reading on the kinds of photo that failed in held-out sets
(``synth.hard_photos``): per kind, grids found (corners within the tolerance), grids read
fully right, and CPU seconds per image.

Run from the repository root:
    python -m bench.hard_photos [--count 20] [--seed 1] [--tolerance 0.03] [--kinds K ...]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import cv2
import numpy as np

from bench.recognition import corner_error
from pipeline.errors import LatticeNotFound, NoGridFound
from pipeline.recognise.ocr.base import OcrEngine
from pipeline.recognise.ocr.engines import make_engine
from pipeline.recognise.read_board import recognise_board
from pipeline.vision.page_boards import rectify_page
from synth.hard_photos import KINDS, HardPhoto


def judge(photo: HardPhoto, engine: OcrEngine, tolerance: float) -> tuple[int, int, float]:
    """Grids found and grids read fully right in one image, and the CPU seconds it took."""
    start = time.process_time()
    try:
        boards = rectify_page(photo.image)
    except (NoGridFound, LatticeNotFound):
        boards = []
    found = right = 0
    for puzzle, corners in zip(photo.puzzles, photo.corners, strict=True):
        errors = [corner_error(b.board.location.corners, corners) for b in boards]
        if not errors or min(errors) >= tolerance:
            continue
        found += 1
        board = boards[int(np.argmin(errors))]
        reading = recognise_board(board.board, board.cells, engine).reading
        truth = [v or 0 for row in puzzle.givens for v in row]
        right += reading.shape == puzzle.shape and [c.digit or 0 for c in reading.cells] == truth
    return found, right, time.process_time() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="images per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tolerance", type=float, default=0.03, help="corner error, share of side")
    parser.add_argument("--kinds", nargs="*", choices=list(KINDS), help="only these kinds")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    engine = make_engine()
    print("| kind | images | grids | found | read right | CPU s/image |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, make in KINDS.items():
        if args.kinds and name not in args.kinds:
            continue
        rng = np.random.default_rng(args.seed)
        grids = found = right = 0
        seconds = 0.0
        for _ in range(args.count):
            photo = make(rng)
            f, r, s = judge(photo, engine, args.tolerance)
            grids += len(photo.puzzles)
            found, right, seconds = found + f, right + r, seconds + s
        print(
            f"| {name} | {args.count} | {grids} | {found} | {right} | {seconds / args.count:.2f} |"
        )


if __name__ == "__main__":
    main()
