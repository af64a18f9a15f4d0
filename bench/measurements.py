"""Run the benches and write their current figures to docs/measurements.md, one short table.

    python -m bench.measurements [--size quick|full] [--only NAME ...] [--out FILE]

Each bench runs as ``python -m bench.NAME ...`` in a process of its own, exactly as a person
would run it; its output is shown on stderr, and its printed figures are read back and put in
the table with the command that printed them. ``quick`` (the default) runs reduced sizes that
take some ten minutes on a shared 2-core machine; ``full`` runs the benches' own sizes. A bench
that fails, or whose output no longer holds a figure, is named in the table and makes the exit
status 1: the table never holds a figure that was not measured in this run.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
DEFAULT_OUT = HERE / "docs" / "measurements.md"

Figures = list[tuple[str, str]]  # (what, value)


@dataclass(frozen=True)
class Bench:
    name: str
    quick: tuple[str, ...]
    full: tuple[str, ...]
    figures: Callable[[str], Figures]


def _find(pattern: str, text: str) -> re.Match[str]:
    found = re.search(pattern, text, re.MULTILINE)
    if found is None:
        raise ValueError(f"no line matches {pattern!r}")
    return found


def books(text: str) -> Figures:
    pages = _find(r"^books-dev, (\d+) pages", text)[1]
    figures = []
    for variant in ("pdf", "scan"):
        row = _find(rf"^\| {variant} \| all \| (.*) \|$", text)[1].split(" | ")
        grids, right, cell_error, per_grid = row[0], row[4], row[6], row[9]
        figures.append(
            (
                f"books-dev ({pages} pages), {variant}: fully right, cell error, CPU-s a grid",
                f"{right}/{grids}, {cell_error}%, {per_grid}",
            )
        )
    return figures


def photos(text: str) -> Figures:
    found = _find(r"^grids found, size\+box right:\s+(\d+/\d+)", text)[1]
    as_read = _find(r"^as read:\s+grids all right (\d+/\d+)", text)[1]
    after = _find(r"^after doubts:\s*grids all right (\d+/\d+)", text)[1]
    return [
        (
            "development photos: grids found / right as read / right after doubts",
            f"{found} / {as_read} / {after}",
        )
    ]


def throughput(text: str) -> Figures:
    pages = _find(r"^pages (\d+)\s+grids (\d+)", text)
    cpu = _find(r"CPU-s a grid ([\d.]+)", text)[1]
    rate = _find(r"grids/s ([\d.]+)\s+\(jobs (\d+)\)", text)
    kb = _find(r"KB a grid (\d+)", text)[1]
    rss = _find(r"^peak RSS coordinator (\d+) MB\s+tree (\d+) MB", text)
    book = f"synthetic book, {pages[1]} pages, {pages[2]} grids, --jobs {rate[2]}"
    return [
        (f"{book}: CPU-s a grid", cpu),
        (f"{book}: grids/s (wall, shared machine)", rate[1]),
        (f"{book}: KB written a grid", kb),
        (f"{book}: peak RSS coordinator / tree", f"{rss[1]} / {rss[2]} MB"),
    ]


def one_photo(text: str) -> Figures:
    runs = _find(r"^\S+, (\d+) runs each", text)[1]
    row = _find(r"^\S+\s+([\d.]+) \([\d.-]+\)\s+([\d.]+) \([\d.-]+\)\s*$", text)
    return [(f"`run examples/photo.jpg`, median of {runs}: wall s / CPU s", f"{row[1]} / {row[2]}")]


def rating(text: str) -> Figures:
    total = _find(r"^(\d+) puzzles from", text)[1]
    within = _find(r"within \+-0\.5: ([\d.]+%)\s+within \+-1\.0: ([\d.]+%)", text)
    speed = _find(r"speed \(CPU, one core, (.+?) core\): (\d+) puzzles/s overall", text)
    return [
        (
            f"difficulty, {total} published SE ratings: within 0.5 / within 1.0",
            f"{within[1]} / {within[2]}",
        ),
        (f"difficulty: puzzles rated a second, one core, {speed[1]} core", speed[2]),
    ]


def solve(text: str) -> Figures:
    # set, backend, n, puz/s, median ms, p99 ms, max ms, cpu ms, wrong, verdicts
    rows = re.findall(
        r"^(\S+)\s+\S+\s+(\d+)\s+\S+\s+([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+\d+\s+(.+)$",
        text,
        re.MULTILINE,
    )
    if not rows:
        raise ValueError("no puzzle set in the output")
    wrong = "none" if "no wrong answers" in text else _find(r"(\d+) WRONG ANSWERS", text)[1]
    name, count, median, verdicts = max(rows, key=lambda row: float(row[2]))
    return [
        (f"solver, {len(rows)} puzzle sets: wrong answers", wrong),
        (
            f"solver, slowest set ({name}, {count} puzzles): median ms a puzzle, verdicts",
            f"{median} ({verdicts.strip()})",
        ),
    ]


def server(text: str) -> Figures:
    pages = _find(r"^pages (\d+)", text)[1]
    ratio = _find(
        r"^server / embedded over \d+ rounds: wall .*\(median ([\d.]+)\); CPU .*"
        r"\(median ([\d.]+)\)",
        text,
    )
    return [(f"server over embedded, {pages} pages: wall / CPU", f"{ratio[1]} / {ratio[2]}")]


BENCHES = (
    Bench("books", ("--every", "6", "--variants", "pdf,scan"), (), books),
    Bench(
        "end_to_end", ("photos", "--limit", "40", "--jobs", "1"), ("photos", "--jobs", "1"), photos
    ),
    Bench("throughput", ("--pages", "20"), ("--pages", "100"), throughput),
    Bench("one_photo", ("--runs", "3"), ("--runs", "12"), one_photo),
    Bench("rating", (), (), rating),
    Bench("solve", ("--limit", "20", "--backend", "auto"), ("--backend", "auto"), solve),
    Bench(
        "throughput_server",
        ("--embedded", "--pages", "8"),
        ("--embedded", "--pages", "100", "--rounds", "3"),
        server,
    ),
)


def run(bench: Bench, size: str) -> tuple[str, Figures | str]:
    """The command line, and its figures or why there are none."""
    arguments = bench.quick if size == "quick" else bench.full
    command = ["python", "-m", f"bench.{bench.name}", *arguments]
    print(f"$ {' '.join(command)}", file=sys.stderr, flush=True)
    started = time.perf_counter()
    ran = subprocess.run(
        [sys.executable, *command[1:]], cwd=HERE, capture_output=True, text=True, check=False
    )
    print(ran.stdout, file=sys.stderr, end="")
    print(f"  ({time.perf_counter() - started:.0f} s)", file=sys.stderr, flush=True)
    shown = " ".join(command)
    if ran.returncode != 0:
        last = (ran.stderr.strip() or ran.stdout.strip() or "no output").splitlines()[-1]
        return shown, f"failed (exit {ran.returncode}): {last}"
    try:
        return shown, bench.figures(ran.stdout)
    except ValueError as error:
        return shown, f"output not understood: {error}"


def page(size: str, results: list[tuple[str, Figures | str]]) -> str:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True
    ).stdout.strip()
    lines = [
        "# Current measurements",
        "",
        "Written by `python -m bench.measurements"
        + (" --size full" if size == "full" else "")
        + "`, which ran each bench below and took the figures it printed"
        + f" ({size} size; commit {commit or 'unknown'},"
        + f" {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load average {os.getloadavg()[0]:.1f}"
        + f" on {os.cpu_count()} cores).",
        "Quick is a reduced size, shown in each row's command; full runs the benches at their"
        " own sizes.",
        "Times are from a machine shared with other work: compare ratios measured side by side"
        " in one run, not these times across runs. How each figure is counted: the bench's"
        " docstring. Earlier figures are in git log and in the benches' output.",
        "",
        "| figure | value | command |",
        "|---|---|---|",
    ]
    for command, figures in results:
        if isinstance(figures, str):
            lines.append(f"| **not measured** | {figures} | `{command}` |")
            continue
        lines += [f"| {what} | {value} | `{command}` |" for what, value in figures]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", choices=("quick", "full"), default="quick")
    parser.add_argument("--only", nargs="*", choices=[b.name for b in BENCHES], default=None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    chosen = [b for b in BENCHES if args.only is None or b.name in args.only]
    results = [run(bench, args.size) for bench in chosen]
    args.out.write_text(page(args.size, results), encoding="utf-8")
    print(args.out.read_text(encoding="utf-8"))
    return 1 if any(isinstance(figures, str) for _, figures in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
