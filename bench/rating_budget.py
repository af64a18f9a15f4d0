"""The rater's budget: how fast each core spends its work units, and what a text run of large
hard grids costs per grid.

    python bench/rating_budget.py units [--seconds S]
    python bench/rating_budget.py run-text [--file NAME] [--timeout T] [--checkout DIR]
                                           [--separately --kill-after S]

``units``: per core (compiled, then the .py sources, each in a process of its own), the work
units spent per CPU second on three workloads, each puzzle rated under a budget of ``--seconds``
of units: the 9x9s of ``bench/data/se_rated_sample.txt`` rated 7 and up (chain tiers), the
Gecode 16x16s, and the Gecode 25x25s (the backtracking fallback). ``UNITS_PER_SECOND`` of
``pipeline/book/bounded_rating.py`` is the compiled core's figure.

``run-text``: ``sudoku-batch run --text`` on ``--file`` (default the 18 Gecode 25x25s from
``../shared/data/puzzles``), then per grid its verdict, the solve step's seconds (solve, rating,
canonical form), its rating or the reason for none, and the run's wall time. ``--checkout DIR``
runs another checkout's code with this Python (for a before/after on one machine; the
checkout's compiled extensions are used when they match its sources). ``--separately`` runs
each line as a run of its own, killed after ``--kill-after`` seconds: for code whose rater
does not stop, where a run of the whole file would never end.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.shared_data import shared_data_dir  # noqa: E402

PURE_ENV = "SUDOKU_BATCH_PURE_RATER"  # settings.environment.PURE_RATER
CLI = "import sys; from sudoku_batch.cli import main; sys.exit(main())"

UNITS_SCRIPT = """
import json, sys, time
import sudoku_batch.pipeline.rating as rating
from sudoku_batch.pipeline.book.bounded_rating import UNITS_PER_SECOND
from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line
from sudoku_batch.pipeline.rating.budget import Budget, BudgetExhausted
seconds, sets = float(sys.argv[1]), json.loads(sys.argv[2])
out = {"compiled": rating.COMPILED, "sets": {}}
for name, lines in sets.items():
    units = cpu = 0.0
    stopped = 0
    for text in lines:
        budget = Budget(units=round(seconds * UNITS_PER_SECOND))
        started = time.process_time()
        try:
            rating.rate_puzzle(parse_puzzle_line(text).puzzle, None, budget)
        except BudgetExhausted:
            stopped += 1
        cpu += time.process_time() - started
        units += budget.spent
    out["sets"][name] = {"puzzles": len(lines), "stopped": stopped, "units": units, "cpu": cpu}
print(json.dumps(out))
"""


def _lines(path: Path) -> list[str]:
    return [
        line.split()[0]
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]


def units(args: argparse.Namespace) -> int:
    puzzles = shared_data_dir() / "puzzles"
    sample = REPO / "bench" / "data" / "se_rated_sample.txt"
    chains = [
        line.split()[0]
        for line in sample.read_text().splitlines()
        if line[:1].isdigit() and float(line.split()[1].split("-")[0]) >= 7.0
    ]
    sets = {
        "9x9 rated 7+ (chains)": chains,
        "16x16 gecode": _lines(puzzles / "gecode_16x16.txt"),
        "25x25 gecode (search)": _lines(puzzles / "gecode_25x25.txt"),
    }
    print(f"work units per CPU second, each puzzle under a budget of {args.seconds:g} s of units")
    print(f"{'set':<24} {'core':<12} {'puzzles':>7} {'stopped':>7} {'units/s':>12}")
    for core, pure in (("compiled", "0"), ("pure Python", "1")):
        done = subprocess.run(
            [sys.executable, "-c", UNITS_SCRIPT, str(args.seconds), json.dumps(sets)],
            cwd=REPO,
            env={**os.environ, PURE_ENV: pure},
            capture_output=True,
            text=True,
            check=True,
        )
        measured = json.loads(done.stdout)
        if measured["compiled"] != (pure == "0"):
            print(f"  ({core}: not available here, skipped)")
            continue
        for name, figures in measured["sets"].items():
            rate = figures["units"] / figures["cpu"]
            print(
                f"{name:<24} {core:<12} {figures['puzzles']:>7} {figures['stopped']:>7} "
                f"{rate:>12,.0f}"
            )
    return 0


def _run_text(
    lines: list[str], out: Path, args: argparse.Namespace, kill_after: float | None
) -> tuple[list[dict] | None, float]:
    source = out.with_suffix(".txt")
    source.write_text("".join(f"{line}\n" for line in lines))
    command = [sys.executable, "-c", CLI, "run", "--text", str(source), "--out", str(out)]
    command += ["--timeout", str(args.timeout), "--jobs", str(args.jobs)]
    checkout = Path(args.checkout).resolve() if args.checkout else REPO
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    started = time.perf_counter()
    try:
        subprocess.run(
            command, cwd=checkout, env=env, capture_output=True, timeout=kill_after, check=False
        )
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - started
    wall = time.perf_counter() - started
    results = out / "results.jsonl"
    records = (
        [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    )
    return records, wall


def run_text(args: argparse.Namespace) -> int:
    lines = _lines(shared_data_dir() / "puzzles" / args.file)
    rows: list[tuple[int, dict | None, float | None]] = []
    with tempfile.TemporaryDirectory() as scratch:
        if args.separately:
            for number, line in enumerate(lines, start=1):
                records, wall = _run_text(
                    [line], Path(scratch) / str(number), args, args.kill_after
                )
                rows.append((number, records[0] if records else None, wall))
            total = sum(wall for _, _, wall in rows if wall is not None)
        else:
            records, total = _run_text(lines, Path(scratch) / "all", args, None)
            assert records is not None
            rows = [(number, record, None) for number, record in enumerate(records, start=1)]
    checkout = args.checkout or str(REPO)
    print(f"sudoku-batch run --text {args.file} --timeout {args.timeout:g} --jobs {args.jobs}")
    print(f"code: {checkout}; {'each line a run of its own' if args.separately else 'one run'}")
    print(f"{'line':>4} {'status':<10} {'solve step s':>12} {'rating':>6}  reason")
    seconds, rated, reasons = [], 0, {}
    for number, record, _ in rows:
        if record is None:
            print(
                f"{number:>4} {'killed':<10} {'>' + format(args.kill_after, 'g'):>12} {'-':>6}  "
                f"no record: the run was killed after {args.kill_after:g} s"
            )
            seconds.append(args.kill_after)
            reasons["killed, no record"] = reasons.get("killed, no record", 0) + 1
            continue
        step = record["seconds"].get("solve", 0.0)
        seconds.append(step)
        rating = record.get("rating")
        rated += rating is not None
        reason = (record.get("message") or "").split(" (")[0]
        if rating is None:
            reasons[reason] = reasons.get(reason, 0) + 1
        shown = "-" if rating is None else f"{rating:.1f}"
        print(f"{number:>4} {record['status']:<10} {step:>12.2f} {shown:>6}  {reason}")
    print(f"grids: {len(rows)}, rated: {rated}")
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        print(f"  not rated ({count}): {reason}")
    print(
        f"solve step seconds per grid: median {statistics.median(seconds):.2f}, "
        f"max {max(seconds):.2f}; wall of the run(s): {total:.1f} s"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    measure = commands.add_parser("units")
    measure.add_argument("--seconds", type=float, default=2.0)
    text = commands.add_parser("run-text")
    text.add_argument("--file", default="gecode_25x25.txt")
    text.add_argument("--timeout", type=float, default=60.0)
    text.add_argument("--jobs", type=int, default=1)
    text.add_argument("--checkout")
    text.add_argument("--separately", action="store_true")
    text.add_argument("--kill-after", type=float, default=120.0)
    args = parser.parse_args()
    return units(args) if args.command == "units" else run_text(args)


if __name__ == "__main__":
    sys.exit(main())
