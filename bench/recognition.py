"""Recognition figures on the real photos of shared/data/wichtounet-v2-train, and on synthetic
scanned book pages (several grids of all sizes per page, from sudoku_batch.synth.book).

Run from the repository root:
    python -m bench.recognition [--limit N] [--tolerance 0.03] [--book-pages 20] [--failures]

Each photo goes once through the vision stages (``run_vision``); each ``*_figures`` function
turns those results into figures, so a new measurement (e.g. OCR accuracy on the crops of
``VisionResult.cells``) is one more function over the same results.
"""

from __future__ import annotations

import argparse
import csv
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.board import BoardImage, BoardLocation, CellImage, CellKind
from sudoku_batch.pipeline.errors import LatticeNotFound
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.rectify import rectify_board
from sudoku_batch.synth.book import ScannedPage, random_book
from sudoku_batch.synth.grid_image import cell_kind

DATASET = "wichtounet-v2-train"


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

    ``corner_error`` is that of the found board nearest the true corners (None when nothing
    was found or the sample has no corner truth); ``board`` and ``cells`` belong to it when it
    is within the tolerance. ``seconds`` is the CPU time of locate, then rectify and classify
    of every board found (not reading the file), which other work on a shared machine does not
    inflate.
    """

    sample: Sample
    locations: list[BoardLocation]
    corner_error: float | None
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


def read_boards(
    pixels: np.ndarray,
) -> tuple[list[BoardLocation], list[tuple[BoardImage, list[CellImage]] | None], float]:
    """The vision stages on one page: locations, each one's board and cells (None where its
    lattice failed), and the CPU seconds they took."""
    start = time.process_time()
    locations = find_boards(pixels)
    read: list[tuple[BoardImage, list[CellImage]] | None] = []
    for location in locations:
        try:
            board = rectify_board(pixels, location)
            read.append((board, classify_cells(board)))
        except LatticeNotFound:
            read.append(None)
    return locations, read, time.process_time() - start


def run_vision(sample: Sample, tolerance: float) -> VisionResult:
    pixels = read_photo(sample.path)
    locations, read, seconds = read_boards(pixels)
    if not locations:
        return VisionResult(sample, locations, None, None, None, seconds)
    if sample.corners is None:
        # Without corner truth the first board found stands in; its cells still get judged.
        nearest, error = 0, None
    else:
        errors = [corner_error(loc.corners, sample.corners) for loc in locations]
        nearest = int(np.argmin(errors))
        error = errors[nearest]
    if read[nearest] is None or (error is not None and error >= tolerance):
        return VisionResult(sample, locations, error, None, None, seconds)
    board, cells = read[nearest]
    return VisionResult(sample, locations, error, board, cells, seconds)


def board_finding_figures(results: Sequence[VisionResult]) -> dict[str, float]:
    """How often the true board is found (corners within the tolerance), how close its corners
    are, and how often other regions are taken for boards too.

    ``find_boards`` puts corners on the centre line of the printed border; this dataset's
    corners were clicked by hand, mostly on its outer edge and a few on text below the grid,
    so half a border's width (about 1-2% of the side) separates them at best.
    """
    found = sum(r.board is not None for r in results)
    right_size = sum(r.board is not None and r.board.shape.size == 9 for r in results)
    errors = np.array([r.corner_error for r in results if r.corner_error is not None])
    return {
        "images": len(results),
        "board found %": 100.0 * found / len(results),
        "found as 9x9 %": 100.0 * right_size / len(results),
        "nothing found": sum(not r.locations for r in results),
        "more than one board found": sum(len(r.locations) > 1 for r in results),
        "corner error median %": 100.0 * float(np.median(errors)) if errors.size else float("nan"),
        "corners within 5% of side %": 100.0 * float((errors < 0.05).sum()) / len(results),
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


BLANK_BANDS = (0.0, 0.5, 0.9, 0.99, 1.01)


def blank_confidence_figures(results: Sequence[VisionResult]) -> dict[str, str]:
    """How well an empty cell's confidence says it is empty: per confidence band, the cells
    read empty and how many of them truly are."""
    read_empty: list[tuple[float, bool]] = []
    for result in results:
        if result.cells is None or len(result.cells) != 81:
            continue
        for cell in result.cells:
            if cell.kind is CellKind.EMPTY and cell.confidence is not None:
                truly_empty = result.sample.givens[cell.row * 9 + cell.col] == 0
                read_empty.append((cell.confidence, truly_empty))
    figures: dict[str, str] = {}
    for low, high in zip(BLANK_BANDS, BLANK_BANDS[1:], strict=False):
        band = [empty for confidence, empty in read_empty if low <= confidence < high]
        name = f"blanks at {low:.2f}-{min(high, 1.0):.2f}"
        figures[name] = f"{sum(band)}/{len(band)} truly empty"
    return figures


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
            lines.append(
                f"{result.sample.name}: board not found ({len(result.locations)} found, "
                f"nearest corner error {result.corner_error})"
            )
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
        if len(result.locations) > 1:
            lines.append(f"{result.sample.name}: {len(result.locations)} boards found")
    return lines


@dataclass(frozen=True)
class BookPageResult:
    """One synthetic page: per true grid (reading order), whether the board at the same place
    in the found order has its corners within the tolerance, the right shape, and how many of
    its cells got the wrong kind."""

    grids: int
    boards_found: int
    placed: list[bool]
    shaped: list[bool]
    cell_errors: int
    cells: int
    seconds: float


def run_book_page(page: ScannedPage, tolerance: float) -> BookPageResult:
    pixels = cv2.imdecode(np.frombuffer(page.jpeg, np.uint8), cv2.IMREAD_COLOR)
    locations, read, seconds = read_boards(pixels)
    placed, shaped = [], []
    cell_errors = cells = 0
    for index, grid in enumerate(page.grids):
        found = index < len(locations) and read[index] is not None
        placed.append(found and corner_error(locations[index].corners, grid.corners) < tolerance)
        shaped.append(placed[-1] and read[index][0].shape == grid.generated.puzzle.shape)
        if shaped[-1]:
            truth = [cell_kind(v) for row in grid.generated.puzzle.givens for v in row]
            cell_errors += sum(c.kind != k for c, k in zip(read[index][1], truth, strict=True))
            cells += len(truth)
    return BookPageResult(
        len(page.grids), len(locations), placed, shaped, cell_errors, cells, seconds
    )


def book_figures(results: Sequence[BookPageResult]) -> dict[str, float]:
    """Grids found in reading order with the right size and box shape, on synthetic pages."""
    grids = sum(r.grids for r in results)
    ms = np.array([1000.0 * r.seconds for r in results])
    return {
        "book pages": len(results),
        "book grids": grids,
        "book grids found in order %": 100.0 * sum(sum(r.placed) for r in results) / grids,
        "book grids right shape %": 100.0 * sum(sum(r.shaped) for r in results) / grids,
        "book pages, wrong board count": sum(r.boards_found != r.grids for r in results),
        "book cell kind error %": 100.0
        * sum(r.cell_errors for r in results)
        / max(sum(r.cells for r in results), 1),
        "book ms per page, median": float(np.median(ms)),
        "book ms per grid, mean": float(ms.sum() / grids),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N photos")
    parser.add_argument("--tolerance", type=float, default=0.03, help="corner error, share of side")
    parser.add_argument("--failures", action="store_true", help="list the photos that failed")
    parser.add_argument("--book-pages", type=int, default=20, help="synthetic pages (0: none)")
    parser.add_argument("--book-seed", type=int, default=1)
    args = parser.parse_args(argv)
    # Timings are per page on one core, as a worker process runs them.
    cv2.setNumThreads(1)
    samples = load_samples(shared_data_dir() / DATASET, args.limit)
    results = [run_vision(sample, args.tolerance) for sample in samples]
    pages = random_book(np.random.default_rng(args.book_seed), args.book_pages)
    book = [run_book_page(page, args.tolerance) for page in pages]
    for figures in (
        board_finding_figures(results),
        cell_kind_figures(results),
        blank_confidence_figures(results),
        timing_figures(results),
        book_figures(book) if book else {},
    ):
        for name, value in figures.items():
            print(
                f"{name:>28}: {value:.2f}" if isinstance(value, float) else f"{name:>28}: {value}"
            )
    if args.failures:
        print("\n".join(failures(results)))


if __name__ == "__main__":
    main()
