"""Grid kinds per source, end to end through the embedded runner: grids read fully right,
verdicts the truth contradicts, grids classified as other grids, and, for books with other grids,
whether exactly the puzzles are counted and every answer pairs and matches.

Run from the repository root:

    python -m bench.grid_kinds make DIR [--seeds 1 2 3]     # mixed synthetic books (synth)
    python -m bench.grid_kinds run photos|books-dev|DIR OUT  # run, then score OUT
    python -m bench.grid_kinds score photos|books-dev|DIR OUT

``score`` reads only ``OUT/results.jsonl``, so the same scoring serves a run of another
checkout (before and after, side by side):
``cd OTHER && python -m sudoku_batch.cli run INPUTS --out OUT``, then score it here.

Sources: ``photos`` (shared/data/wichtounet-v2-train), ``books-dev`` (shared/data/books-dev, its
PDFs), or a folder made by ``make`` (each ``mixed-S/book.pdf`` with ``kinds.json``: per page,
each grid's kind in reading order: puzzle, answer, hints, table or calendar).
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import Counter
from pathlib import Path

from bench.shared_data import shared_data_dir
from sudoku_batch.synth.unique import count_solutions

PHOTOS, BOOKS_DEV = "wichtounet-v2-train", "books-dev"


def make(folder: Path, seeds: list[int]) -> None:
    import numpy as np

    from sudoku_batch.synth.other_grids import mixed_book
    from sudoku_batch.synth.pdf import write_jpeg_pdf

    for seed in seeds:
        book = mixed_book(np.random.default_rng(seed))
        out = folder / f"mixed-{seed}"
        out.mkdir(parents=True, exist_ok=True)
        write_jpeg_pdf(out / "book.pdf", iter(book.pages), 150)
        (out / "kinds.json").write_text(json.dumps([list(page) for page in book.kinds]))
        print(f"wrote {out / 'book.pdf'}")


def inputs_of(source: str) -> list[Path]:
    if source == "photos":
        return [shared_data_dir() / PHOTOS / "images"]
    if source == "books-dev":
        return [shared_data_dir() / BOOKS_DEV / "pdf"]
    return sorted(Path(source).glob("mixed-*/book.pdf"))


def run(source: str, out: Path) -> None:
    from sudoku_batch.embedded import EmbeddedOptions, run_batch

    run_batch(inputs_of(source), EmbeddedOptions(out, jobs=2, progress=False))


def truth_of(source: str) -> dict[tuple[str, int, int], dict]:
    """(file name relative to the source, page, index) -> {kind, givens (None: not a Sudoku)}."""
    if source == "photos":
        with open(shared_data_dir() / PHOTOS / "manifest.csv", newline="") as manifest:
            rows = list(csv.DictReader(manifest))
        return {
            (Path(row["image"]).name, 1, 0): {
                "kind": "puzzle",
                "givens": [[int(ch) for ch in row["givens"][r * 9 : r * 9 + 9]] for r in range(9)],
            }
            for row in rows
        }
    if source == "books-dev":
        lines = (shared_data_dir() / BOOKS_DEV / "manifest.jsonl").read_text().splitlines()
        grids = [json.loads(line) for line in lines]
        return {
            (grid["file"].removeprefix("pdf/"), grid["page"], grid["index"]): {
                "kind": "puzzle" if grid["kind"] == "puzzle" else "answer",
                "givens": grid["givens"],
            }
            for grid in grids
        }
    truth = {}
    for kinds in sorted(Path(source).glob("mixed-*/kinds.json")):
        for page, page_kinds in enumerate(json.loads(kinds.read_text()), start=1):
            for index, kind in enumerate(page_kinds):
                key = (f"{kinds.parent.name}/book.pdf", page, index)
                truth[key] = {"kind": kind, "givens": None}
    return truth


def _key(source: str, record: dict) -> tuple[str, int, int]:
    path = Path(record["source"])
    name = path.name if source == "photos" else f"{path.parent.name}/{path.name}"
    return name, record["page"], record["index"]


def score(source: str, out: Path) -> dict:
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    grids = [r for r in records if r.get("puzzle_id") is not None]
    truth = truth_of(source)
    sudoku_truth = {k: t for k, t in truth.items() if t["kind"] in ("puzzle", "answer")}
    fully_right = contradicted = 0
    for record in grids:
        expected = sudoku_truth.get(_key(source, record))
        if expected is None or expected["givens"] is None:
            continue
        fully_right += _after_doubts(record) == expected["givens"]
        contradicted += _contradicted(record, expected["givens"])
    others = [r for r in grids if r["role"] == "other"]
    true_others = [k for k, t in truth.items() if t["kind"] not in ("puzzle", "answer")]
    puzzles = [r for r in grids if r["role"] == "puzzle"]
    answers = [r for r in grids if r["role"] == "answer"]
    paired = [r for r in puzzles if r.get("answer_key")]
    kinds = Counter(t["kind"] for t in truth.values())
    figures = {
        "grids in truth": len(sudoku_truth),
        "grids found": len(grids),
        "fully right": fully_right if source in ("photos", "books-dev") else "-",
        "verdicts contradicted": contradicted if source in ("photos", "books-dev") else "-",
        "statuses": dict(Counter(r["status"] for r in grids)),
        "classified other": len(others),
        "other grids in truth": len(true_others),
        "puzzles counted": f"{len(puzzles)} (truth {kinds['puzzle']})",
        "answers": f"{len(answers)} (truth {kinds['answer']})",
        "puzzles paired / matching": f"{len(paired)} / "
        f"{sum(r['answer_key']['matches'] for r in paired)}",
        "false mismatches": sum(not r["answer_key"]["matches"] for r in paired),
        "unsolvable or multiple": sum(
            r["status"] in ("unsolvable", "multiple_solutions") for r in grids
        ),
    }
    from sudoku_batch.outcome import exit_code

    figures["exit code"] = int(exit_code(records))
    for name, value in figures.items():
        print(f"{name + ':':<28}{value}")
    return figures


def _after_doubts(record: dict) -> list[list[int]]:
    givens = [list(row) for row in record["givens"] or []]
    for doubt in record["doubts"]:
        givens[doubt["row"]][doubt["col"]] = doubt["replaced_by"]
    return givens


def _contradicted(record: dict, givens: list[list[int]]) -> bool:
    """A verdict the truth's givens contradict: a solution other than theirs, or no (unique)
    solution where they have exactly one. Other grids have no verdict."""
    from sudoku_batch.pipeline.grid import GridShape, Puzzle

    status = record["status"]
    if status not in ("solved", "unsolvable", "multiple_solutions"):
        return False
    size = len(givens)
    box = tuple(record["box"]) if record["box"] else (3, 3)
    puzzle = Puzzle(GridShape(*box), tuple(tuple(row) for row in givens))
    unique = count_solutions(puzzle) == 1
    if status != "solved":
        return unique
    solution = record["solution"]
    return (
        not unique
        or solution is None
        or any(
            givens[r][c] and solution[r][c] != givens[r][c]
            for r in range(size)
            for c in range(size)
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("make", "run", "score"))
    parser.add_argument("source", help="photos, books-dev, or a folder of mixed books")
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    args = parser.parse_args()
    if args.command == "make":
        make(Path(args.source), args.seeds)
        return
    if args.out is None:
        parser.error("OUT is needed")
    if args.command == "run":
        run(args.source, args.out)
    score(args.source, args.out)


if __name__ == "__main__":
    main()
