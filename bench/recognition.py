"""Recognition figures on the real photos of shared/data/wichtounet-v2-train.

Run from the repository root:  python -m bench.recognition [--limit N] [--tolerance 0.03]

Each photo goes once through the vision stages (``run_vision``); each ``*_figures`` function
turns those results into figures, so a new measurement (e.g. OCR accuracy on the crops of
``VisionResult.cells``) is one more function over the same results.
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from pipeline.board import BoardImage, BoardLocation, CellImage, CellKind
from pipeline.cells import classify_cells
from pipeline.errors import LatticeNotFound
from pipeline.locate import find_boards
from pipeline.rectify import rectify_board

REPO_ROOT = Path(__file__).resolve().parents[1]
DATASET = "wichtounet-v2-train"


def shared_data_dir() -> Path:
    return Path(os.environ.get("SUDOKU_BATCH_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))


@dataclass(frozen=True)
class Sample:
    """One photo and its truth: the grid's corners (TL, TR, BR, BL; None where the manifest has
    none) and 81 givens (0 = empty)."""

    name: str
    path: Path
    corners: np.ndarray | None = field(repr=False)
    givens: tuple[int, ...] = field(repr=False)


@dataclass(frozen=True)
class VisionResult:
    """What the vision stages made of one sample.

    ``board`` and ``cells`` belong to the found board that matches the true corners, if any.
    ``seconds`` covers locate + rectify + classify, not reading the file.
    """

    sample: Sample
    locations: list[BoardLocation]
    board: BoardImage | None
    cells: list[CellImage] | None
    seconds: float


def load_samples(root: Path, limit: int | None = None) -> list[Sample]:
    with open(root / "manifest.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    samples = [
        Sample(
            name=Path(row["image"]).stem,
            path=root / row["image"],
            corners=_corners(row["corners_TL_TR_BR_BL"]),
            givens=tuple(int(ch) for ch in row["givens"]),
        )
        for row in rows
    ]
    return samples[:limit]


def _corners(text: str) -> np.ndarray | None:
    values = text.split()
    return np.array(values, np.float32).reshape(4, 2) if values else None


def read_photo(path: Path) -> np.ndarray:
    # Some of these JPEGs carry a wrong EXIF rotation flag; the truth is in raw pixel order.
    pixels = cv2.imread(str(path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if pixels is None:
        raise FileNotFoundError(path)
    return pixels


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The worst corner's distance from the truth, as a share of the board's mean side."""
    side = float(np.linalg.norm(truth - np.roll(truth, -1, axis=0), axis=1).mean())
    return float(np.linalg.norm(found - truth, axis=1).max()) / side


def run_vision(sample: Sample, tolerance: float) -> VisionResult:
    pixels = read_photo(sample.path)
    start = time.perf_counter()
    locations = find_boards(pixels)
    board = cells = None
    if sample.corners is None:
        # Without corner truth the first board found stands in; its cells still get judged.
        matching = locations[:1]
    else:
        matching = [
            loc for loc in locations if corner_error(loc.corners, sample.corners) < tolerance
        ]
    if matching:
        try:
            board = rectify_board(pixels, matching[0])
            cells = classify_cells(board)
        except LatticeNotFound:
            board = None
    seconds = time.perf_counter() - start
    return VisionResult(sample, locations, board, cells, seconds)


def board_finding_figures(results: Sequence[VisionResult]) -> dict[str, float]:
    """How often the true board is among those found, and how many others come with it."""
    found = sum(r.board is not None for r in results)
    extra = sum(len(r.locations) - (r.board is not None) for r in results)
    right_size = sum(r.board is not None and r.board.shape.size == 9 for r in results)
    return {
        "images": len(results),
        "board found %": 100.0 * found / len(results),
        "found as 9x9 %": 100.0 * right_size / len(results),
        "other boards reported": extra,
    }


def cell_kind_figures(results: Sequence[VisionResult]) -> dict[str, float]:
    """Empty-vs-given errors over the boards found as 9x9 (a missed board counts no cells)."""
    cells = errors = missed_givens = false_givens = 0
    for result in results:
        if result.cells is None or len(result.cells) != 81:
            continue
        for cell in result.cells:
            truly_given = result.sample.givens[cell.row * 9 + cell.col] != 0
            said_given = cell.kind is CellKind.GIVEN
            cells += 1
            errors += truly_given != said_given
            missed_givens += truly_given and not said_given
            false_givens += said_given and not truly_given
    return {
        "cells judged": cells,
        "cell kind error %": 100.0 * errors / max(cells, 1),
        "givens missed": missed_givens,
        "empties taken for givens": false_givens,
    }


def timing_figures(results: Sequence[VisionResult]) -> dict[str, float]:
    ms = np.array([1000.0 * r.seconds for r in results])
    return {
        "ms per page, median": float(np.median(ms)),
        "ms per page, 95th pct": float(np.percentile(ms, 95)),
        "ms per page, max": float(ms.max()),
    }


def failures(results: Sequence[VisionResult]) -> list[str]:
    """One line per photo whose board was missed or whose cells were misjudged."""
    lines = []
    for result in results:
        if result.board is None:
            truth = result.sample.corners
            errors = [
                round(corner_error(loc.corners, truth), 3) if truth is not None else None
                for loc in result.locations
            ]
            lines.append(f"{result.sample.name}: board not found (found corner errors {errors})")
        elif result.cells is not None and len(result.cells) == 81:
            wrong = [
                f"r{c.row + 1}c{c.col + 1}"
                for c in result.cells
                if (c.kind is CellKind.GIVEN) != (result.sample.givens[c.row * 9 + c.col] != 0)
            ]
            if wrong:
                lines.append(f"{result.sample.name}: cell kinds wrong at {' '.join(wrong)}")
        else:
            lines.append(f"{result.sample.name}: found as {result.board.shape}")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N photos")
    parser.add_argument("--tolerance", type=float, default=0.03, help="corner error, share of side")
    parser.add_argument("--failures", action="store_true", help="list the photos that failed")
    args = parser.parse_args(argv)
    samples = load_samples(shared_data_dir() / DATASET, args.limit)
    results = [run_vision(sample, args.tolerance) for sample in samples]
    for figures in (
        board_finding_figures(results),
        cell_kind_figures(results),
        timing_figures(results),
    ):
        for name, value in figures.items():
            print(
                f"{name:>28}: {value:.2f}" if isinstance(value, float) else f"{name:>28}: {value}"
            )
    if args.failures:
        print("\n".join(failures(results)))


if __name__ == "__main__":
    main()
