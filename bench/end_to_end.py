"""End-to-end figures through the embedded runner, exactly as ``sudoku-batch run`` drives it.

Run from the repository root:

    python -m bench.end_to_end photos [--limit N] [--jobs 2]   # shared/data/wichtounet-v2-train
    python -m bench.end_to_end book [--pages 50] [--seed 1]    # a synthetic scanned book (synth)

Prints: share of grids found (with the right size and box shape), share of grids with every
cell right (empty, blocked or the digit), cell error rate over the grids found, grids
certified (and those certified but read wrong), confidence calibration (share of digit
readings right at confidence >= 0.99), verdicts, and seconds per page (wall clock of the whole
run, engines' start-up included, divided by the pages).
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench.recognition import DATASET
from bench.shared_data import shared_data_dir
from sudoku_batch.embedded import EmbeddedOptions, run_batch
from sudoku_batch.pipeline.recognise.ocr.engines import DEFAULT_ENGINE

# (source as given to the runner, page, index on page)
GridKey = tuple[str, int, int]


@dataclass(frozen=True)
class TrueGrid:
    size: int
    box: tuple[int, int]
    givens: list[list[int | None]]


def photo_truth(limit: int | None) -> tuple[list[str], dict[GridKey, TrueGrid]]:
    dataset = shared_data_dir() / DATASET
    if not dataset.is_dir():
        raise SystemExit(f"{dataset} not found: set SUDOKU_BATCH_SHARED_DATA")
    with open(dataset / "manifest.csv", newline="") as manifest:
        rows = list(csv.DictReader(manifest))[:limit]
    truth = {}
    for row in rows:
        digits = [int(ch) for ch in row["givens"]]
        givens = [digits[r * 9 : r * 9 + 9] for r in range(9)]
        truth[(str(dataset / row["image"]), 1, 0)] = TrueGrid(9, (3, 3), givens)
    return sorted({key[0] for key in truth}), truth


def book_truth(folder: Path, pages: int, seed: int, dpi: int):
    from sudoku_batch.synth.book import random_book, write_book

    document = write_book(folder, random_book(np.random.default_rng(seed), pages, dpi=dpi), dpi=dpi)
    source = str(folder / "book.pdf")
    truth = {
        (source, page["page"], index): TrueGrid(grid["size"], tuple(grid["box"]), grid["givens"])
        for page in document["pages"]
        for index, grid in enumerate(page["grids"])
    }
    return [source], truth


def report(
    records: list[dict], truth: dict[GridKey, TrueGrid], seconds: float, pages: int, jobs: int
) -> None:
    found = {(r["source"], r["page"], r["index"]): r for r in records if r["size"]}
    extra = [key for key in found if key not in truth]
    matched = {
        key: (found[key], expected)
        for key, expected in truth.items()
        if key in found
        and found[key]["size"] == [expected.size] * 2
        and tuple(found[key]["box"]) == expected.box
    }
    n = len(truth)
    verdicts = Counter(r["status"] for r in records)
    print(f"pages: {pages}   grids in truth: {n}   run: {seconds:.1f} s with --jobs {jobs}")
    print(f"statuses:                     {dict(verdicts)}")
    print(
        f"grids found, size+box right:  {len(matched)}/{n} = {len(matched) / n:.1%}"
        f"   (extra grids: {len(extra)})"
    )
    for label, givens_of in (("as read", _read_givens), ("after doubts", _reconciled_givens)):
        fully_right = wrong_cells = cells = 0
        for record, expected in matched.values():
            errors = sum(
                a != b
                for row_a, row_b in zip(givens_of(record), expected.givens, strict=True)
                for a, b in zip(row_a, row_b, strict=True)
            )
            wrong_cells += errors
            cells += expected.size**2
            fully_right += errors == 0
        error_rate = wrong_cells / max(cells, 1)
        print(
            f"{label + ':':<14}grids all right {fully_right}/{n} = {fully_right / n:.1%}"
            f"   cell error {wrong_cells}/{cells} = {error_rate:.3%}"
        )
    certified = [key for key, record in found.items() if record.get("certified")]
    wrong = [
        key
        for key in certified
        if key not in matched or _read_givens(found[key]) != truth[key].givens
    ]
    print(
        f"certified:                    {len(certified)}/{len(found)}"
        f"   certified but read wrong: {len(wrong)}"
    )
    print(f"seconds per page:             {seconds / pages:.3f}")


def _read_givens(record: dict) -> list[list[int | None]]:
    size = record["size"][0]
    return record["givens"] or [[0] * size for _ in range(size)]


def _reconciled_givens(record: dict) -> list[list[int | None]]:
    """The givens the solver finally used: readings it doubted replaced as it decided."""
    givens = [list(row) for row in _read_givens(record)]
    for doubt in record["doubts"]:
        givens[doubt["row"]][doubt["col"]] = doubt["replaced_by"]
    return givens


def calibration(out: Path, truth: dict[GridKey, TrueGrid]) -> None:
    """Share of digit readings right, per confidence band, from the run's cells table."""
    import sqlite3

    query = """
        select pg.source, pg.page_number, pz.index_on_page, c.row, c.col, c.digit, c.confidence
        from cells c join puzzles pz on pz.id = c.puzzle_id join pages pg on pg.id = pz.page_id
        where c.kind = 'given' and c.confidence is not null"""
    bands = {">= 0.99": [0, 0], "0.9-0.99": [0, 0], "< 0.9": [0, 0]}
    with sqlite3.connect(out / "sudoku-batch.sqlite") as db:
        for source, page, index, row, col, digit, confidence in db.execute(query):
            expected = truth.get((source, page, index))
            if expected is None or len(expected.givens) <= max(row, col):
                continue
            band = ">= 0.99" if confidence >= 0.99 else "0.9-0.99" if confidence >= 0.9 else "< 0.9"
            bands[band][0] += expected.givens[row][col] == digit
            bands[band][1] += 1
    for band, (right, total) in bands.items():
        share = f"{right / total:.3%}" if total else "-"
        print(f"readings at confidence {band:>9}: {right}/{total} right = {share}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", choices=("photos", "book"))
    parser.add_argument("--limit", type=int, default=None, help="photos: the first N only")
    parser.add_argument("--pages", type=int, default=50, help="book: pages to generate")
    parser.add_argument("--seed", type=int, default=1, help="book: generator seed")
    parser.add_argument("--dpi", type=int, default=200, help="book: scan and rasterise dpi")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--engine", default=DEFAULT_ENGINE)
    parser.add_argument("--out", type=Path, default=None, help="keep the run's output here")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        out = args.out or Path(scratch)
        if args.dataset == "photos":
            inputs, truth = photo_truth(args.limit)
        else:
            inputs, truth = book_truth(out / "input", args.pages, args.seed, args.dpi)
        options = EmbeddedOptions(
            out_dir=out / "run", jobs=args.jobs, engine=args.engine, dpi=args.dpi, progress=False
        )
        started = time.perf_counter()
        records = run_batch(inputs, options).records
        seconds = time.perf_counter() - started
        pages = len({(r["source"], r["page"]) for r in records})
        report(records, truth, seconds, pages, args.jobs)
        calibration(out / "run", truth)


if __name__ == "__main__":
    main()
