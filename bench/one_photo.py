"""Wall and CPU time of ``sudoku-batch run PHOTO --out NEW_DIR``, a fresh process each run
(issue 13's one-photo goal: <= 0.5 s wall).

Run from the repository root:

    python -m bench.one_photo [--photo examples/photo.jpg] [--runs 5] [--against DIR ...]

Each checkout (this one, and each ``--against`` folder, e.g. a ``git worktree`` of main) runs
the same command with ``PYTHONPATH`` set to it and this interpreter, turn about, into a new
output folder each time; the user's cache folder is shared, and one untimed run per checkout
first fills it and the checkout's bytecode cache (the state of every run after a user's
first, also where ``PYTHONDONTWRITEBYTECODE`` is set). CPU is the child's user+sys
time. Wall time is noisy on a shared machine, so the load average is printed too.

A new ``git worktree`` has no compiled rater (``pip install -e`` builds its extensions in
place, untracked): copy ``pipeline_rating__mypyc*.so``, ``pipeline/rating/*.so`` and
``pipeline/rating/compiled_sources.json`` into it, or it rates in pure Python and its
imports differ (``pipeline.rating.compiled_core``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def one_run(checkout: Path, photo: Path, out: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``run`` from ``checkout``."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    # Bytecode is cached as after a user's first run: without it every module the run
    # imports is compiled from source each time.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, "-m", "sudoku_batch.cli", "run", str(photo), "--out", str(out)]
    return timed_child([*command, "--no-progress"], env, out.parent)


def timed_child(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of ``command`` run to its end, its output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photo", type=Path, default=HERE / "examples" / "photo.jpg")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, action="append", default=[], metavar="DIR")
    args = parser.parse_args()
    checkouts = [HERE, *(path.resolve() for path in args.against)]
    photo = args.photo.resolve()
    times: dict[Path, list[tuple[float, float]]] = {checkout: [] for checkout in checkouts}
    with tempfile.TemporaryDirectory(prefix="one-photo-") as scratch:
        for n in range(args.runs + 1):
            for i, checkout in enumerate(checkouts):
                measured = one_run(checkout, photo, Path(scratch) / f"out-{i}-{n}")
                if n:  # the first run of each fills the cache
                    times[checkout].append(measured)
    print(f"{photo.name}, {args.runs} runs each, load average {os.getloadavg()[0]:.1f}")
    print(f"{'checkout':40s} {'wall median (range)':>24s} {'CPU median (range)':>24s}")
    for checkout, measured in times.items():
        walls, cpus = [w for w, _ in measured], [c for _, c in measured]
        print(f"{str(checkout):40s} {_summary(walls):>24s} {_summary(cpus):>24s}")


def _summary(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


if __name__ == "__main__":
    main()
