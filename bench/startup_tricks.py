"""What each start-up trick (``sudoku_batch/startup.py``) saves a one-photo ``run``: the same
command, a fresh process each run, with all the tricks and with each one turned off in turn.

Run from the repository root:

    python -m bench.startup_tricks [--photo examples/photo.jpg] [--runs 5] [--only VARIANT ...]

Each round runs every variant once, in a shuffled order, into a new output folder; the cache
folder (``XDG_CACHE_HOME``, so no ``SUDOKU_BATCH_`` variable is set) is private to the bench and
filled by one untimed run first. CPU is the run's user+sys time, its forked page's included.
The figures are medians over rounds, and the ratio is each round's time over that round's run
with every trick, so a machine whose load changes between rounds compares like with like.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

from bench.one_photo import timed_child

HERE = Path(__file__).resolve().parents[1]

# Each variant turns one trick off before the command's modules are imported (or, for a module
# the command imports later, imports it as the command would: with collection paused).
SETUP = {
    "all tricks": "",
    "no freeze at exit": "startup.freeze_at_exit = lambda: None",
    "no collection pause": "startup.collection_paused = contextlib.nullcontext",
    "no freeze across fork": "startup.fork_frozen = os.fork",
    "no page ahead": (
        "with startup.collection_paused():\n"
        "    import sudoku_batch.embedded as embedded\n"
        "embedded._page_ahead = lambda sources, options: None"
    ),
    "no schema template": (
        "with startup.collection_paused():\n"
        "    from sudoku_batch.store import schema_template\n"
        "schema_template.copy_template = lambda database: False\n"
        "schema_template.save_template = lambda database: None"
    ),
    "pydantic settings always": (
        "import sudoku_batch.settings.environment\n"
        "settings.environment.any_setting_given = lambda env=None: True"
    ),
    "no saved OCR graphs": (
        "from sudoku_batch.pipeline.engine_files import EngineFiles\n"
        "import sudoku_batch.engine_files\n"
        "sudoku_batch.engine_files.engine_files = lambda: EngineFiles(cache_dir=None)"
    ),
    # As if every import were at the top of its module: the store before the page's fork, and
    # the modules a one-photo run does without.
    "store imported before fork": (
        "with startup.collection_paused():\n    import sudoku_batch.embedded_store"
    ),
    "optional modules imported": (
        "with startup.collection_paused():\n"
        "    import importlib.metadata, pebble, tqdm, settings, store.migrate\n"
        "    import sqlalchemy.dialects.postgresql\n"
        "    from sudoku_batch.cli import COMMANDS\n"
        "    for name in COMMANDS:\n"
        "        importlib.import_module('sudoku_batch.commands.' + name.replace('-', '_'))"
    ),
}
RUNNER = """
import contextlib, importlib, os, sys
from sudoku_batch.settings.environment import set_library_defaults
set_library_defaults()  # before numpy, as the command does
from sudoku_batch import startup
{setup}
from sudoku_batch.cli import main
sys.exit(main(["run", sys.argv[1], "--out", sys.argv[2], "--no-progress"]))
"""


def one_run(variant: str, photo: Path, out: Path, cache: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``run`` with ``variant``'s trick off."""
    env = {**os.environ, "PYTHONPATH": str(HERE), "XDG_CACHE_HOME": str(cache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode cached, as after a user's first run
    code = RUNNER.format(setup=SETUP[variant])
    return timed_child([sys.executable, "-c", code, str(photo), str(out)], env, out.parent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photo", type=Path, default=HERE / "examples" / "photo.jpg")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--only", action="append", choices=list(SETUP)[1:], help="this variant (repeatable)"
    )
    args = parser.parse_args()
    variants = ["all tricks", *(args.only or list(SETUP)[1:])]
    photo = args.photo.resolve()
    shuffled = random.Random(args.seed)
    times: dict[str, list[tuple[float, float]]] = {variant: [] for variant in variants}
    with tempfile.TemporaryDirectory(prefix="startup-tricks-") as scratch:
        cache = Path(scratch) / "cache"
        one_run("all tricks", photo, Path(scratch) / "warm-up", cache)
        for n in range(args.runs):
            order = list(variants)
            shuffled.shuffle(order)
            for i, variant in enumerate(order):
                out = Path(scratch) / f"out-{n}-{i}"
                times[variant].append(one_run(variant, photo, out, cache))
    print(f"{photo.name}, {args.runs} rounds, load average {os.getloadavg()[0]:.1f}")
    print(f"{'variant':28s} {'CPU s':>6s} {'ratio':>6s} {'wall s':>7s} {'ratio':>6s}")
    base = times["all tricks"]
    for variant, measured in times.items():
        cpu = statistics.median(c for _, c in measured)
        wall = statistics.median(w for w, _ in measured)
        cpu_ratio = statistics.median(c / b for (_, c), (_, b) in zip(measured, base, strict=True))
        wall_ratio = statistics.median(w / b for (w, _), (b, _) in zip(measured, base, strict=True))
        print(f"{variant:28s} {cpu:6.2f} {cpu_ratio:6.2f} {wall:7.2f} {wall_ratio:6.2f}")


if __name__ == "__main__":
    main()
