"""Grid finding on a style's page scanned roughly (``synth.degrade.ROUGH``) under many scan
seeds, each turning the page by its own angle of up to 4 degrees: grids found by
``find_boards``, in all and on the pages turned by more than ``--turned`` degrees.

Run from the repository root:
    python -m bench.turned_scans [--styles hairline-grey,shaded-hairline] [--seeds 100]
"""

from __future__ import annotations

import argparse
import time
import zlib
from collections.abc import Sequence

import cv2
import numpy as np

from bench.styles import SCAN_DPI, SETS
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.synth.degrade import ROUGH, scan
from sudoku_batch.synth.styles import random_puzzles, styled_page


def found_on_scan(name: str, seed: int) -> tuple[int, int, float]:
    """Grids found and grids on page 1 of a style scanned with a seed, and the scan's turn.
    A grid is found when a board's centre lies within 0.15 of its side of the grid's (turned
    as the scan turned the page) and its area is 0.8-1.25 of the grid's."""
    styled = SETS[name]
    rng = np.random.default_rng(zlib.crc32(f"{name}:1".encode()))
    puzzles = random_puzzles(styled.shape, styled.count, rng, styled.fill)
    page = styled_page(puzzles, styled.style, dpi=SCAN_DPI, columns=styled.columns, rng=rng)
    # The scan's first draw is its turn.
    turn = np.random.default_rng(seed).uniform(-ROUGH.rotation_deg, ROUGH.rotation_deg)
    boards = find_boards(scan(page.image, np.random.default_rng(seed), ROUGH))
    height, width = page.image.shape[:2]
    turned = cv2.getRotationMatrix2D((width / 2, height / 2), turn, 1.0)
    found = 0
    for grid in page.grids:
        side = float(np.sqrt(cv2.contourArea(grid.corners)))
        centre = turned[:, :2] @ grid.corners.mean(axis=0) + turned[:, 2]
        found += any(
            np.linalg.norm(b.corners.mean(axis=0) - centre) < 0.15 * side
            and 0.8 < cv2.contourArea(b.corners) / side**2 < 1.25
            for b in boards
        )
    return found, len(page.grids), float(turn)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--styles", default="hairline-grey,shaded-hairline")
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--turned", type=float, default=3.0, help="degrees")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    print("| style | pages | grids | found | pages turned > limit | their grids | found | CPU s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.styles.split(","):
        start = time.process_time()
        results = [found_on_scan(name, seed) for seed in range(args.seeds)]
        turned = [r for r in results if abs(r[2]) > args.turned]
        print(
            f"| {name} | {len(results)} | {sum(r[1] for r in results)} "
            f"| {sum(r[0] for r in results)} | {len(turned)} | {sum(r[1] for r in turned)} "
            f"| {sum(r[0] for r in turned)} | {time.process_time() - start:.1f} |"
        )


if __name__ == "__main__":
    main()
