"""Where the rater's time goes: CPU seconds per technique, over the puzzles it rates <= 9.

    python bench/rating_techniques.py [--data bench/data/se_rated_sample.txt]

Rates the sample once to find the puzzles rated <= 9 (the speed goal's set), then rates those
again with every technique of the ladder timed (CPU time of this process), each puzzle started
with the per-shape memo empty as in ``bench/rating.py``. Prints the total, the puzzles per
second, and each technique's seconds and share, largest first. The timing wrapper costs a
little per call, so the total is slightly above ``bench/rating.py``'s.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.rating import DEFAULT_DATA  # noqa: E402
from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line  # noqa: E402
from sudoku_batch.pipeline.rating import rate_puzzle, rater  # noqa: E402
from sudoku_batch.pipeline.rating.candidates import geometry  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    lines = [line.split()[0] for line in args.data.read_text().splitlines() if line[:1].isdigit()]
    puzzles = [parse_puzzle_line(text).puzzle for text in lines]
    puzzles = [p for p in puzzles if (rate_puzzle(p).score or 99.0) <= 9.0]

    spent: dict[str, float] = defaultdict(float)

    def timed(technique):
        name = technique.__name__

        def run(board):
            started = time.process_time()
            found = technique(board)
            spent[name] += time.process_time() - started
            return found

        return run

    # The ladder is read from the module at each rating, so timing it means swapping it here.
    rater.BASIC_TECHNIQUES = tuple(map(timed, rater.BASIC_TECHNIQUES))
    rater.CHAIN_TECHNIQUES = tuple(map(timed, rater.CHAIN_TECHNIQUES))
    started = time.process_time()
    for puzzle in puzzles:
        geometry(puzzle.shape).parts.clear()
        rate_puzzle(puzzle)
    total = time.process_time() - started
    print(f"{len(puzzles)} puzzles rated <= 9: {total:.2f} s CPU, {len(puzzles) / total:.0f}/s")
    print("technique: CPU seconds, share of the total")
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"  {name:<28} {seconds:6.3f}  {seconds / total:6.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
