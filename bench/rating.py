"""Calibration of pipeline.rating against published Sudoku Explainer ratings, and its speed.

    python bench/rating.py [--data bench/data/se_rated_sample.txt] [--limit N] [--repeat R]
                           [--speeds-json PATH]

Reads ``<puzzle> <rating or lo-hi range> <source>`` lines (see bench/data/README.md), rates each
puzzle on one core and prints: the share of puzzles within +-0.5 and +-1.0 of the published
rating (for range lines: inside the range widened by the same margins), the mean signed error,
a confusion table of levels (published vs ours), the shares and error by published band, and
puzzles per second (CPU time of this process), overall, for puzzles we rate <= 9, by our level
and by our rating band. With
``--repeat R`` each puzzle is rated R times and its median CPU time counted, which steadies the
speed on a shared machine (ratings are deterministic, so only the time differs). Every run starts
with the rater's per-shape memo of digit and unit scans empty, so no puzzle is timed on what an
earlier one (or an earlier repeat) left there; a worker rating a whole book keeps it, which can
only be faster.

It says which core ran: the compiled one (setup.py) or the .py sources
(``SUDOKU_BATCH_PURE_RATER=1``); ``--speeds-json`` also writes the puzzles/s figures, which
``bench/rating_cores.py`` uses to set both cores side by side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line  # noqa: E402
from sudoku_batch.pipeline.rating import COMPILED, LEVELS, level_of, rate_puzzle  # noqa: E402
from sudoku_batch.pipeline.rating.candidates import geometry  # noqa: E402

DEFAULT_DATA = REPO / "bench" / "data" / "se_rated_sample.txt"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--speeds-json", type=Path)
    args = parser.parse_args()
    rows = [line.split() for line in args.data.read_text().splitlines() if line[:1].isdigit()]
    if args.limit:
        rows = rows[: args.limit]

    within = Counter()
    signed: list[float] = []
    confusion: dict[str, Counter] = defaultdict(Counter)
    by_band: dict[int, list[float]] = defaultdict(list)  # signed errors (0 inside the range)
    cpu_all = cpu_le9 = 0.0
    by_level_cpu: dict[str, list[float]] = defaultdict(list)  # our level -> CPU seconds
    by_band_cpu: dict[int, list[float]] = defaultdict(list)  # our rating's integer part -> same
    count_le9 = unrated = 0
    for text, published, _source in rows:
        lo, _, hi = published.partition("-")
        lo_f, hi_f = float(lo), float(hi or lo)
        puzzle = parse_puzzle_line(text).puzzle
        times = []
        for _ in range(max(1, args.repeat)):
            geometry(puzzle.shape).parts.clear()  # each run starts cold, repeats included
            started = time.process_time()
            rating = rate_puzzle(puzzle)
            times.append(time.process_time() - started)
        spent = statistics.median(times)
        cpu_all += spent
        if rating.score is None:
            unrated += 1
            print(f"unrated: {text} ({published}): {rating.reason}")
            continue
        by_level_cpu[rating.level].append(spent)
        by_band_cpu[int(rating.score)].append(spent)
        if rating.score <= 9.0:
            cpu_le9 += spent
            count_le9 += 1
        error = rating.score - hi_f if rating.score > hi_f else min(0.0, rating.score - lo_f)
        within["0.5"] += abs(error) <= 0.5 + 1e-9
        within["1.0"] += abs(error) <= 1.0 + 1e-9
        signed.append(error)
        confusion[level_of((lo_f + hi_f) / 2)][rating.level] += 1
        by_band[int(lo_f)].append(error)

    total = len(rows)
    print(f"\n{total} puzzles from {args.data.name}; {unrated} unrated")
    print(f"within +-0.5: {within['0.5'] / total:.1%}   within +-1.0: {within['1.0'] / total:.1%}")
    if signed:
        print(f"mean signed error {sum(signed) / len(signed):+.2f} (ours minus published)")
    names = [name for name, _ in LEVELS]
    print("\nlevels: rows published, columns ours")
    print(f"{'':>11}" + "".join(f"{n:>11}" for n in names))
    for name in names:
        print(f"{name:>11}" + "".join(f"{confusion[name][m]:>11}" for m in names))
    print("\nby published band: puzzles, within +-0.5, within +-1.0, mean signed error")
    for band in sorted(by_band):
        errs = by_band[band]
        half = sum(abs(e) <= 0.5 + 1e-9 for e in errs) / len(errs)
        one = sum(abs(e) <= 1.0 + 1e-9 for e in errs) / len(errs)
        mean = sum(errs) / len(errs)
        print(f"  {band}.x  {len(errs):4d}  {half:6.1%}  {one:6.1%}  {mean:+.2f}")
    core = "compiled (mypyc)" if COMPILED else "pure Python"
    print(f"\nspeed (CPU, one core, {core} core): {total / cpu_all:.0f} puzzles/s overall", end="")
    if count_le9:
        print(f"; {count_le9 / cpu_le9:.0f} puzzles/s for the {count_le9} rated <= 9")
    print("by our level: puzzles, puzzles/s, median ms")
    for name in names:
        _speed_line(name, by_level_cpu.get(name))
    print("by our rating band: puzzles, puzzles/s, median ms")
    for band in sorted(by_band_cpu):
        _speed_line(f"{band}.x", by_band_cpu[band])
    if args.speeds_json:
        speeds = {
            "compiled": COMPILED,
            "overall": total / cpu_all,
            "le9": count_le9 / cpu_le9 if count_le9 else None,
            "bands": {f"{b}.x": len(t) / sum(t) for b, t in sorted(by_band_cpu.items())},
            "band_counts": {f"{b}.x": len(t) for b, t in sorted(by_band_cpu.items())},
        }
        args.speeds_json.write_text(json.dumps(speeds))
    return 0


def _speed_line(label: str, spent: list[float] | None) -> None:
    if spent:
        rate = len(spent) / sum(spent)
        print(
            f"  {label:>11}  {len(spent):4d}  {rate:7.0f}  {1000 * statistics.median(spent):7.1f}"
        )


if __name__ == "__main__":
    sys.exit(main())
