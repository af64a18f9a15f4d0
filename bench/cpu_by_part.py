"""CPU a grid by part of the embedded runner, on one core (issue 13's table of costs).

    python -m bench.cpu_by_part [--pages 20] [--seed 1] [--pdf FILE]

Runs ``run_batch`` with one job (every page in this process) on ``bench.throughput``'s
synthetic book, with the parts below wrapped by a CPU-time clock (``time.process_time``; no
profiler, whose overhead is several times the cost of Python-heavy code). A part called inside
another (the survey inside finding boards) is counted in both. What is left is start-up:
imports, the database, the engines.
"""

from __future__ import annotations

import argparse
import functools
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.throughput import synthetic_book

# (label, module, attribute): the attribute is replaced where it is looked up when called.
PARTS = [
    ("load page (render the PDF page)", "sudoku_batch.jobs.steps", "load_page"),
    ("find boards (find_boards.py)", "sudoku_batch.pipeline.vision.page_boards", "find_boards"),
    (
        "  of which survey: warp + lattice",
        "sudoku_batch.pipeline.vision.find_boards",
        "survey_board",
    ),
    (
        "  of which fit to the lines (gridlines.py)",
        "sudoku_batch.pipeline.vision.find_boards",
        "fit_to_lines",
    ),
    (
        "rectify boards (warp, straighten)",
        "sudoku_batch.pipeline.vision.page_boards",
        "rectify_board",
    ),
    ("cells (cells.py)", "sudoku_batch.pipeline.vision.page_boards", "classify_cells"),
    ("captions", "sudoku_batch.pipeline.recognise.printed_captions", "CaptionReader.page_captions"),
    ("store boards (grey PNG)", "sudoku_batch.store.artifacts", "Artifacts.store_board"),
    ("OCR", "sudoku_batch.jobs.steps", "recognise_board"),
    ("solve, uniqueness", "sudoku_batch.jobs.steps", "solve_reading"),
    ("book facts (rating, canonical form)", "sudoku_batch.jobs.steps", "puzzle_facts"),
    ("render: draw", "sudoku_batch.jobs.steps", "render_solution"),
    ("record in SQLite", "sudoku_batch.embedded", "_persist"),
    ("results.jsonl", "sudoku_batch.embedded", "write_results"),
]


def clocked(seconds: dict[str, float], label: str, function: Callable) -> Callable:
    @functools.wraps(function)
    def timed(*args, **kwargs):
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            seconds[label] += time.process_time() - started

    return timed


def wrap_parts(seconds: dict[str, float]) -> None:
    import importlib

    for label, module_name, attribute in PARTS:
        seconds[label] = 0.0
        owner = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, name, clocked(seconds, label, getattr(owner, name)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dpi", type=int, default=200)
    parser.add_argument("--pdf", default=None, help="run this PDF instead")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sb-bench")
    args = parser.parse_args()
    pdf = args.pdf or str(synthetic_book(args.cache, args.pages, args.seed, args.dpi))
    seconds: dict[str, float] = {}
    started = time.process_time()
    wrap_parts(seconds)
    from sudoku_batch.embedded import EmbeddedOptions, run_batch

    with tempfile.TemporaryDirectory() as scratch:
        options = EmbeddedOptions(out_dir=Path(scratch), jobs=1, dpi=args.dpi, progress=False)
        records = run_batch([pdf], options).records
    total = time.process_time() - started
    grids = max(sum(1 for record in records if record["size"]), 1)
    print(f"grids {grids}  CPU {total:.2f} s  {total / grids * 1000:.1f} CPU-ms a grid (one core)")
    counted = sum(s for label, s in seconds.items() if not label.startswith(" "))
    for label, part in seconds.items():
        print(f"{label:<45} {part / grids * 1000:7.2f} CPU-ms a grid")
    print(f"{'the rest (start-up, steps glue)':<45} {(total - counted) / grids * 1000:7.2f}")


if __name__ == "__main__":
    main()
