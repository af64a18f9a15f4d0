"""Which puzzles the server's OCR task settles inline, by conflict budget (pipeline.solve.inline).

    python -m bench.inline_solve [--limit 200] [--budgets 0,1000,2000,5000]

For each public puzzle set in <shared data>/puzzles/ and the puzzles of the book PDFs in
<shared data>/books-dev/ (their truth givens, as a book's pages hold them): per budget, the
share of puzzles settled inline (with their uniqueness verdict), and the CPU milliseconds an
inline attempt costs, median and worst, over those settled and over those handed on (the
waste before a solve task takes them). Budget 0 is propagation alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from bench.shared_data import shared_data_dir
from sudoku_batch.pipeline.errors import InvalidPuzzle
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.ingest.textpuzzle import is_puzzle_line, parse_puzzle_line
from sudoku_batch.pipeline.solve.inline import BeyondBudget, budgeted_backend
from sudoku_batch.pipeline.solve.solver import solve_puzzle

TIMEOUT = 60.0  # the budget, not the time, is what ends an inline search


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=200, help="puzzles per set")
    parser.add_argument("--budgets", default="0,1000,2000,5000", help="conflicts a search")
    args = parser.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    sets = _sets(shared_data_dir(), args.limit)
    if not sets:
        print("no puzzle sets found: set SUDOKU_BATCH_SHARED_DATA", file=sys.stderr)
        return 2
    heading = f"{'set':34} {'n':>4} {'budget':>7} {'inline':>7}"
    print(f"{heading}  {'settled ms':>16}  {'handed on ms':>16}")
    for name, puzzles in sets.items():
        for budget in budgets:
            backend = budgeted_backend("auto", budget)
            settled, handed_on = [], []
            for puzzle in puzzles:
                started = time.process_time()
                try:
                    solve_puzzle(puzzle, backend, TIMEOUT)
                except BeyondBudget:
                    handed_on.append(1000 * (time.process_time() - started))
                else:
                    settled.append(1000 * (time.process_time() - started))
            share = f"{100 * len(settled) / len(puzzles):.1f}%"
            print(
                f"{name:34} {len(puzzles):>4} {budget:>7} {share:>7}  {_spread(settled):>16}"
                f"  {_spread(handed_on):>16}"
            )
    return 0


def _spread(ms: list[float]) -> str:
    """median / worst, or a dash."""
    return f"{statistics.median(ms):.2f} / {max(ms):.1f}" if ms else "-"


def _sets(shared: Path, limit: int) -> dict[str, list[Puzzle]]:
    sets: dict[str, list[Puzzle]] = {}
    folder = shared / "puzzles"
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        if not path.is_file() or path.suffix == ".md":
            continue
        lines = [line for line in path.read_text().splitlines() if is_puzzle_line(line)]
        puzzles = []
        for line in lines[:limit]:
            try:
                puzzles.append(parse_puzzle_line(line).puzzle)
            except InvalidPuzzle:
                continue  # a set's invalid lines: no puzzle to settle
        sets[path.name] = puzzles
    manifest = shared / "books-dev" / "manifest.jsonl"
    if manifest.is_file():
        for line in manifest.read_text().splitlines():
            grid = json.loads(line)
            if grid["kind"] != "puzzle":
                continue
            givens = tuple(tuple(row) for row in grid["givens"])
            shape = GridShape(*grid["box"])
            name = f"books-dev {grid['generator']}"
            sets.setdefault(name, []).append(Puzzle(shape, givens))
    return sets


if __name__ == "__main__":
    sys.exit(main())
