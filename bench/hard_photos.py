"""Grid finding and reading on the kinds of photo that failed in held-out sets
(``synth.hard_photos``): per kind, grids found (corners within the tolerance), grids read
fully right, and CPU seconds per image.

With ``--layouts``, grid finding alone (``find_boards``) on each layout of grids printed
against each other, ``--count`` photos a layout: grids found and boards found that are no grid.

Run from the repository root:
    python -m bench.hard_photos [--count 20] [--seed 1] [--tolerance 0.03] [--kinds K ...]
    python -m bench.hard_photos --layouts [--count 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import functools
import itertools
import time
from collections.abc import Callable, Iterator, Sequence

import cv2
import numpy as np

from bench.recognition import corner_error
from sudoku_batch.pipeline.errors import LatticeNotFound, NoGridFound
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.hard_photos import KINDS, HardPhoto, grids_in_rows, small_grids_around_9x9

NINE, SIX, FOUR, SIXTEEN = GridShape(3, 3), GridShape(2, 3), GridShape(2, 2), GridShape(4, 4)
SAME_SIZE_LAYOUTS = (
    ((3, 1), (1, 3), (3, 2), (2, 3), (3, 3), (2, 2), (4, 1), (1, 4), (4, 2), (2, 4)),
    (0.0, 0.75, 1.1),  # mm apart: sharing borders, nearly touching, a doubled line
)
SIXTEEN_LAYOUTS = (((2, 1), (1, 2), (2, 2)), (0.0, 0.75))


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


def layouts(seed: int) -> Iterator[tuple[str, Callable[[np.random.Generator], HardPhoto], int]]:
    """Each layout's name, how to draw a photo of it and its seed."""
    for shape, (grids, gaps) in ((NINE, SAME_SIZE_LAYOUTS), (SIXTEEN, SIXTEEN_LAYOUTS)):
        for (columns, rows), gap in itertools.product(grids, gaps):
            yield (
                f"{columns}x{rows} {shape.size}x{shape.size}, {gap} mm",
                functools.partial(
                    grids_in_rows, shape=shape, columns=columns, rows=rows, gap_mm=gap
                ),
                seed * 1000 + 10 * columns + rows + shape.size,
            )
    for small, gap, stacked in itertools.product((SIX, FOUR), (0.0, 0.75), (True, False)):
        where = "along one side" if stacked else "beside and below"
        yield (
            f"9x9 + two {small.size}x{small.size} {where}, {gap} mm",
            lambda rng, small=small, gap=gap, stacked=stacked: small_grids_around_9x9(
                rng, small, gap, below=bool(rng.random() < 0.5), stacked=stacked
            ),
            seed * 1000 + 100 + 10 * small.size + int(4 * gap) + stacked,
        )


def judge_layouts(count: int, seed: int, tolerance: float) -> None:
    print("| layout | grids found | not a grid | CPU s/image |")
    print("|---|---:|---:|---:|")
    for name, make, layout_seed in layouts(seed):
        rng = np.random.default_rng(layout_seed)
        grids = found = extra = 0
        seconds = 0.0
        for _ in range(count):
            photo = make(rng)
            start = time.process_time()
            boards = find_boards(photo.image)
            seconds += time.process_time() - start
            hits = sum(
                1
                for truth in photo.corners
                if boards and min(corner_error(b.corners, truth) for b in boards) < tolerance
            )
            grids, found, extra = (
                grids + len(photo.corners),
                found + hits,
                extra + len(boards) - hits,
            )
        print(f"| {name} | {found} / {grids} | {extra} | {seconds / count:.2f} |")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="images per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tolerance", type=float, default=0.03, help="corner error, share of side")
    parser.add_argument("--kinds", nargs="*", choices=list(KINDS), help="only these kinds")
    parser.add_argument("--layouts", action="store_true", help="grid finding per layout")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.layouts:
        judge_layouts(args.count, args.seed, args.tolerance)
        return
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
