"""Throughput of the server with its files in the local data folder and in an S3 store
(SeaweedFS's ``weed mini``, ``bench.seaweedfs``), side by side, with 1, 2 and 4 worker
processes, and the store's share of a grid's CPU and wall time.

    python -m bench.storage_throughput [--pages 6] [--processes 1,2,4] [--rounds 1]

Each run is ``bench.throughput_server.run``: the same synthetic book through the API and one
prefork worker on a fresh PostgreSQL database. The share comes from two profiles of a solo
worker per store (cProfile, one counting CPU time, one wall time): the time inside the store's
calls (``store/local_storage.py``, ``store/s3_storage.py``, entered from elsewhere) over the
time inside the stage tasks (``workers/tasks/``, entered from elsewhere).
"""

from __future__ import annotations

import argparse
import os
import pstats
import statistics
import tempfile
import uuid
from pathlib import Path

import psutil

from bench.seaweedfs import SeaweedFS
from bench.throughput import synthetic_book
from bench.throughput_server import run, tree_cpu

STORE_FILES = ("store/local_storage.py", "store/s3_storage.py")
TASK_FILES = "workers/tasks/"


def entered_from_outside(stats: pstats.Stats, inside: tuple[str, ...] | str) -> float:
    """Seconds spent in functions of files ``inside``, counted where they are called from other
    files (so a store method calling another is counted once)."""
    total = 0.0
    for (filename, _, _), (_, _, _, _, callers) in stats.stats.items():  # type: ignore[attr-defined]
        if _in(filename, inside):
            total += sum(
                ct for caller, (_, _, _, ct) in callers.items() if not _in(caller[0], inside)
            )
    return total


def _in(filename: str, inside: tuple[str, ...] | str) -> bool:
    return any(part in filename for part in ((inside,) if isinstance(inside, str) else inside))


def share(profile: Path) -> tuple[float, float]:
    """(seconds in the store, seconds in the stage tasks) of a profile."""
    stats = pstats.Stats(str(profile))
    return entered_from_outside(stats, STORE_FILES), entered_from_outside(stats, TASK_FILES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sb-bench")
    parser.add_argument("--no-share", action="store_true", help="skip the profiled runs")
    args = parser.parse_args()
    pdf = synthetic_book(args.cache, args.pages, args.seed, 200)
    processes = [int(n) for n in args.processes.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        server = SeaweedFS(Path(scratch) / "seaweedfs")
        server.start()
        try:
            stores = {
                "local": lambda: None,
                "s3": lambda: {
                    **server.env(),
                    "SUDOKU_BATCH_STORAGE_URL": server.storage_url(uuid.uuid4().hex[:8]),
                },
            }
            weed = psutil.Process(server.process.pid)
            rates: dict[tuple[str, int], list[float]] = {}
            served: list[float] = []  # SeaweedFS's CPU seconds a grid, each S3 run
            for round_ in range(args.rounds):
                for count in processes:
                    # Each store first in turn: the machine's speed drifts within minutes.
                    order = list(stores.items())[:: -1 if round_ % 2 else 1]
                    for name, store_env in order:
                        print(f"-- {name}, {count} worker process(es)", flush=True)
                        before = tree_cpu(weed)
                        with tempfile.TemporaryDirectory() as data:
                            wall, _, grids = run(pdf, count, Path(data), store_env=store_env())
                        rates.setdefault((name, count), []).append(grids / wall)
                        if name == "s3":
                            served.append((tree_cpu(weed) - before) / grids)
                            print(f"SeaweedFS CPU-s a grid {served[-1]:.3f}")
            shares = {}
            if not args.no_share:
                for name, store_env in stores.items():
                    for clock in ("cpu", "wall"):
                        print(f"-- {name}, solo worker profiled ({clock})", flush=True)
                        with tempfile.TemporaryDirectory() as data:
                            profile = Path(data) / "worker.prof"
                            run(pdf, 1, Path(data), profile, None, store_env(), clock == "wall")
                            shares[name, clock] = share(profile)
        finally:
            server.stop()
    print(f"\nbook of {args.pages} pages (200 dpi), {os.cpu_count()} cores,"
          f" load {os.getloadavg()[0]:.1f} at the end")  # fmt: skip
    print("| worker processes | local folder, grids/s | S3 (SeaweedFS), grids/s | S3 / local |")
    print("|---|---|---|---|")
    for count in processes:
        local = statistics.median(rates["local", count])
        s3 = statistics.median(rates["s3", count])
        print(f"| {count} | {local:.2f} | {s3:.2f} | {s3 / local:.2f} |")
    print(f"SeaweedFS's own CPU a grid (median of the S3 runs): {statistics.median(served):.3f} s")
    if shares:
        print("\n| store | CPU in the store / in the tasks | wall in the store / in the tasks |")
        print("|---|---|---|")
        for name in stores:
            cells = []
            for clock in ("cpu", "wall"):
                store, tasks = shares[name, clock]
                cells.append(f"{store:.2f} s / {tasks:.2f} s = {store / tasks:.1%}")
            print(f"| {name} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
