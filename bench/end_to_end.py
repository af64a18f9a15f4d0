"""End-to-end figures on the real photos of shared/data/wichtounet-v2-train, through the
embedded runner exactly as ``sudoku-batch run`` drives it.

Run from the repository root:  python -m bench.end_to_end [--limit N] [--jobs 2]

Prints: share of photos with a grid found, share of grids with every one of the 81 cells right
(empty vs digit, and the digit), cell error rate, share solved, and seconds per photo (wall
clock of the whole run, engines' start-up included, divided by the number of photos).
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from collections import Counter
from pathlib import Path

from bench.recognition import DATASET, shared_data_dir
from sudoku_batch.embedded import EmbeddedOptions, run_batch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="first N photos only")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--engine", default="ppocr-onnx")
    parser.add_argument("--out", type=Path, default=None, help="keep the run's output here")
    args = parser.parse_args()

    dataset = shared_data_dir() / DATASET
    if not dataset.is_dir():
        raise SystemExit(f"{dataset} not found: set SUDOKU_BATCH_SHARED_DATA")
    with open(dataset / "manifest.csv", newline="") as manifest:
        rows = list(csv.DictReader(manifest))[: args.limit]
    truth = {str(dataset / row["image"]): [int(ch) for ch in row["givens"]] for row in rows}

    with tempfile.TemporaryDirectory() as scratch:
        out = args.out or Path(scratch)
        options = EmbeddedOptions(out_dir=out, jobs=args.jobs, engine=args.engine)
        started = time.perf_counter()
        records = run_batch(list(truth), options)
        seconds = time.perf_counter() - started

    first_grid = {}
    for record in records:
        if record["index"] in (0, None) and record["source"] not in first_grid:
            first_grid[record["source"]] = record
    statuses = Counter(record["status"] for record in first_grid.values())
    found = fully_right = wrong_cells = solved = 0
    for source, expected in truth.items():
        record = first_grid.get(source)
        if record is None or record["givens"] is None or record["size"] != [9, 9]:
            continue
        found += 1
        read = [value or 0 for row in record["givens"] for value in row]
        errors = sum(a != b for a, b in zip(read, expected, strict=True))
        wrong_cells += errors
        fully_right += errors == 0
        solved += record["status"] == "solved" and errors == 0
    n = len(truth)
    print(f"photos: {n}   run: {seconds:.1f} s with --jobs {args.jobs}")
    print(f"statuses: {dict(statuses)}")
    print(f"grid found (9x9 read):      {found}/{n} = {found / n:.1%}")
    print(f"grids with all 81 right:    {fully_right}/{n} = {fully_right / n:.1%}")
    print(f"cell error rate (found):    {wrong_cells}/{found * 81} = "
          f"{wrong_cells / max(found * 81, 1):.3%}")
    print(f"solved and right:           {solved}/{n} = {solved / n:.1%}")
    print(f"seconds per photo:          {seconds / n:.3f}")


if __name__ == "__main__":
    main()
