"""Time to resume a book interrupted halfway against running it whole.

    python -m bench.resume [--pages 100] [--jobs 2]

Makes a synthetic book (synth.book), runs it whole into one folder, then runs it into another
and sends SIGINT once half its pages are finished, and runs the same command again; prints
the seconds of each run and how many pages the resumed run did.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = [sys.executable, "-m", "sudoku_batch.cli", "run"]


def _timed(argv: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of the run's whole process tree, and its summary line."""
    started, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(argv, capture_output=True, text=True, env=_env())
    summary = done.stdout.strip().splitlines()[0]
    return time.perf_counter() - started, _children_cpu() - cpu, summary


def _children_cpu() -> float:
    # CPU time is steady on a loaded machine where wall time is not.
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _env() -> dict[str, str]:
    return {**os.environ, "OMP_NUM_THREADS": "1"}


def _finished(database: Path) -> int:
    try:
        with sqlite3.connect(database, timeout=1) as db:
            return db.execute(
                "select count(*) from pages where status not in ('pending', 'interrupted')"
            ).fetchone()[0]
    except sqlite3.Error:
        return 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-resume-"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sudoku_batch.synth.book",
            str(work),
            "--pages",
            str(args.pages),
            "--seed",
            "7",
            "--dpi",
            "150",
        ],
        check=True,
    )
    book = str(work / "book.pdf")
    options = ["--jobs", str(args.jobs), "--no-progress"]
    whole, whole_cpu, summary = _timed([*CLI, book, "--out", str(work / "whole"), *options])
    print(f"whole run: {whole:.1f} s, {whole_cpu:.1f} CPU-s ({summary})")

    out = work / "resumed"
    argv_resumed = [*CLI, book, "--out", str(out), *options]
    started, cpu = time.perf_counter(), _children_cpu()
    process = subprocess.Popen(
        argv_resumed, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    while process.poll() is None and _finished(out / "sudoku-batch.sqlite") < args.pages // 2:
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    process.wait()
    first, first_cpu = time.perf_counter() - started, _children_cpu() - cpu
    print(
        f"interrupted at page {_finished(out / 'sudoku-batch.sqlite')}: {first:.1f} s, "
        f"{first_cpu:.1f} CPU-s (exit {process.returncode})"
    )
    second, second_cpu, summary = _timed(argv_resumed)
    print(f"resumed run: {second:.1f} s, {second_cpu:.1f} CPU-s ({summary})")
    print(
        f"interrupted + resumed: {first + second:.1f} s, {first_cpu + second_cpu:.1f} CPU-s "
        f"against {whole:.1f} s, {whole_cpu:.1f} CPU-s whole; the resumed run alone is "
        f"{second_cpu / whole_cpu:.0%} of the whole's CPU time"
    )


if __name__ == "__main__":
    main()
