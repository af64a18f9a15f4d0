"""Solve and rate times of jigsaw and diagonal Sudoku against classic, on puzzles made alike.

    python bench/variants.py [--count 20] [--seed 1] [--keep 0 --keep 30]

Every set is made the same way by ``synth.variant_puzzles`` (a random partition for a jigsaw,
the 3x3 boxes otherwise; a random solution by SAT; givens removed in random order while the
solution stays unique, down to a minimal puzzle with ``--keep 0``, or to ``keep`` givens), so
classic and variants differ only in their units. Per set and kind of givens: the median and p90
CPU milliseconds of the solve (uniqueness verdict included, the default backend) and of the
rating under the book check's budget (``pipeline.book.bounded_rating``, 2 s), the share rated,
the median score, and the verdicts. Solutions are checked against the generator's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sudoku_batch.pipeline.book.bounded_rating import DEFAULT_RATING_SECONDS, rate_within  # noqa: E402
from sudoku_batch.pipeline.solve.backends import DEFAULT_BACKEND, make_backend  # noqa: E402
from sudoku_batch.pipeline.solve.result import Verdict  # noqa: E402
from sudoku_batch.pipeline.solve.solver import solve_puzzle  # noqa: E402
from sudoku_batch.synth.variant_puzzles import random_variant_puzzle  # noqa: E402

SETS = {  # name: (jigsaw, diagonals)
    "classic": (False, False),
    "jigsaw": (True, False),
    "diagonal": (False, True),
    "jigsaw+diagonal": (True, True),
}


def _cpu_ms(work):
    start = time.process_time()
    value = work()
    return value, (time.process_time() - start) * 1000


def _p90(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(0.9 * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per set (default 20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--keep", type=int, action="append", help="givens kept (0: minimal); repeatable"
    )
    args = parser.parse_args()
    backend = make_backend(DEFAULT_BACKEND)
    print(f"backend {DEFAULT_BACKEND}; rating budget {DEFAULT_RATING_SECONDS:g} s; CPU ms")
    print(
        f"{'set':16} {'givens':>7} {'n':>3} {'solve med':>9} {'p90':>7} {'rate med':>9} "
        f"{'p90':>8} {'rated':>6} {'score':>6} {'wrong':>5}  verdicts"
    )
    for keep in args.keep or [0, 30]:
        for name, (jigsaw, diagonals) in SETS.items():
            rng = np.random.default_rng(args.seed)
            solve_ms, rate_ms, scores, verdicts, givens = [], [], [], Counter(), []
            wrong = 0
            for _ in range(args.count):
                made = random_variant_puzzle(9, rng, jigsaw=jigsaw, diagonals=diagonals, keep=keep)
                puzzle = made.puzzle
                givens.append(sum(1 for row in puzzle.givens for v in row if v))
                result, ms = _cpu_ms(lambda p=puzzle: solve_puzzle(p, backend, 30.0))
                solve_ms.append(ms)
                verdicts[str(result.verdict)] += 1
                wrong += result.verdict is Verdict.SOLVED and result.solution != made.solution
                rating, ms = _cpu_ms(
                    lambda p=puzzle, s=made.solution: rate_within(p, s, DEFAULT_RATING_SECONDS)
                )
                rate_ms.append(ms)
                if rating.score is not None:
                    scores.append(rating.score)
            label = "minimal" if keep == 0 else f">= {keep}"
            score = f"{statistics.median(scores):.1f}" if scores else "-"
            print(
                f"{name:16} {label:>7} {len(solve_ms):3} {statistics.median(solve_ms):9.2f} "
                f"{_p90(solve_ms):7.2f} {statistics.median(rate_ms):9.1f} {_p90(rate_ms):8.1f} "
                f"{len(scores) / len(rate_ms):6.0%} {score:>6} {wrong:5}  "
                + " ".join(f"{k}={v}" for k, v in sorted(verdicts.items()))
                + f"  (median givens {statistics.median(givens):g})"
            )


if __name__ == "__main__":
    main()
