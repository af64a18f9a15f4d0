"""Wall and CPU time of ``sudoku-batch run PHOTO --out NEW_DIR``, a fresh process each run
(issue 13's one-photo goal: <= 0.5 s wall).

Run from the repository root:

    python -m bench.one_photo [--photo examples/photo.jpg] [--runs 5] [--against DIR ...]

Each checkout (this one, and each ``--against`` folder, e.g. a ``git worktree`` of main) runs
the same command with its own interpreter, turn about, into a new output folder each time:
this one with the interpreter running the bench, another with its ``.venv/bin/python``. The
one package's folders are subpackages only as installed (setup.py's ``package_dir``), so a
checkout on ``PYTHONPATH`` would run this one's code; each interpreter is checked to import
``sudoku_batch`` from its own checkout first. Give another checkout its venv once:

    cd DIR && python3 -m venv .venv && .venv/bin/pip install -e .

The user's cache folder is shared, and one untimed run per checkout first fills it and the
checkout's bytecode cache (the state of every run after a user's first, also where
``PYTHONDONTWRITEBYTECODE`` is set). CPU is the child's user+sys time. Wall time is noisy on a
shared machine, so the load average is printed too.

A new ``git worktree`` has no compiled rater unless its install compiled one
(``SUDOKU_BATCH_COMPILE=1``; setup.py): without it, it rates in pure Python and its imports
differ (``pipeline.rating.compiled_core``).
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


class WrongInterpreter(Exception):
    """A checkout without an interpreter that runs its own code."""


def checkout_python(checkout: Path) -> Path:
    """The interpreter that runs ``checkout``'s code: this one for this checkout, the
    checkout's own ``.venv`` for another; checked by where it imports the package from."""
    python = Path(sys.executable) if checkout == HERE else checkout / ".venv" / "bin" / "python"
    if not python.exists():
        raise WrongInterpreter(
            f"{checkout} has no {python.relative_to(checkout)}: cd {checkout} && "
            "python3 -m venv .venv && .venv/bin/pip install -e ."
        )
    found = subprocess.run(
        [str(python), "-c", "import sudoku_batch.pipeline as p; print(p.__file__)"],
        env=child_environment(),
        capture_output=True,
        text=True,
    )
    imported = Path(found.stdout.strip()).resolve() if found.returncode == 0 else None
    if imported is None or not imported.is_relative_to(checkout):
        raise WrongInterpreter(
            f"{python} runs sudoku_batch from {imported or 'nowhere'}, not from {checkout}: "
            f"install it there ({python} -m pip install -e {checkout})"
        )
    return python


def child_environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # each interpreter imports its own install, nothing else
    # Bytecode is cached as after a user's first run: without it every module the run
    # imports is compiled from source each time.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def one_run(python: Path, photo: Path, out: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``run`` by ``python``."""
    command = [str(python), "-m", "sudoku_batch.cli", "run", str(photo), "--out", str(out)]
    return timed_child([*command, "--no-progress"], child_environment(), out.parent)


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
    try:
        pythons = {checkout: checkout_python(checkout) for checkout in checkouts}
    except WrongInterpreter as wrong:
        parser.error(str(wrong))
    photo = args.photo.resolve()
    times: dict[Path, list[tuple[float, float]]] = {checkout: [] for checkout in checkouts}
    with tempfile.TemporaryDirectory(prefix="one-photo-") as scratch:
        for n in range(args.runs + 1):
            for i, checkout in enumerate(checkouts):
                measured = one_run(pythons[checkout], photo, Path(scratch) / f"out-{i}-{n}")
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
