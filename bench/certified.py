"""Calibration of the confident-reading thresholds behind ``certified`` (pipeline.certify), per
source, against exact truth.

Run from the repository root:
    python -m bench.certified [--limit N] [--every 2] [--cache FILE]

Sources, each reported apart: the development photos (shared/data/wichtounet-v2-train, read
whole: board finding included), books-dev rendered as a job reads the PDF and scanned
(``bench.books``), the synthetic print styles at 150 dpi and scanned (``bench.styles``), and the
same styles at 150 dpi with one given of each grid misprinted (a clash in the print), where
the true verdict is that the printed puzzle has no solution.
Every grid goes through ``rectify_page``, ``recognise_board`` and ``solve_reading`` as a job's
steps run them; ``--cache`` keeps those outcomes (pickle) so the figures can be printed again
without reading.

Prints, per source: the confidence of given readings right and wrong (and of cells read empty,
right and wrong: a missed given), in bands; then for each pair of thresholds (digit, empty):
grids certified, their share, and the certified grids that are wrong (givens or solution not the
truth, or no grid there at all) and the verdicts the truth contradicts that calling a doubted
reading confident adds (``pipeline.solve.repairs``: these sources hold no misprint, so each
is false); the digit thresholds that certify no wrong grid, call no misread a misprint and
miss no misprint on any source, and whether the default is among them; and, before and after,
grids fully right as read, verdicts the truth contradicts (a verdict other than the true
puzzle's for a grid read at its size, a solution other than the truth's, or any verdict on a
board where the truth has no grid), and the certified share with its precision.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import pickle
import zlib
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from bench.books import DATASET as BOOKS
from bench.books import load_pages, match, render
from bench.recognition import DATASET as PHOTOS
from bench.shared_data import shared_data_dir
from bench.styles import SETS
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.certify import BoardFacts, CertifyPolicy, certify
from sudoku_batch.pipeline.errors import LatticeNotFound, NoGridFound
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.ingest.sources import expand_input, load_page
from sudoku_batch.pipeline.reading import BoardReading
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.reconcile import solve_reading
from sudoku_batch.pipeline.solve.repairs import printed_verdict
from sudoku_batch.pipeline.solve.result import PuzzleSolution, Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth import degrade
from sudoku_batch.synth.puzzles import GeneratedPuzzle
from sudoku_batch.synth.styles import styled_page
from sudoku_batch.synth.unique import unique_puzzle

TIMEOUT = 10.0
SCAN_DPI = 200  # as bench.styles scans
DIGIT_THRESHOLDS = (0.5, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.999)
EMPTY_THRESHOLDS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95)
BANDS = (0.0, 0.5, 0.9, 0.95, 0.99, 0.999, 1.01)


@dataclass
class GridOutcome:
    """One board read and solved, with its true grid (None: a board where truth has none)."""

    source: str
    where: str
    reading: BoardReading | None  # None (and facts, solved): a true grid no board was found for
    facts: BoardFacts | None
    solved: PuzzleSolution | None
    truth: Puzzle | None
    truth_solution: tuple | None
    truth_verdict: Verdict | None = None

    @property
    def read_right(self) -> bool:
        return self.truth is not None and self.reading.puzzle() == self.truth


@dataclass
class Page:
    source: str
    where: str
    pixels: np.ndarray
    damaged: str | None
    truths: list[Puzzle]


def photo_pages(limit: int | None) -> Iterator[Page]:
    root = shared_data_dir() / PHOTOS
    with open(root / "manifest.csv", newline="") as manifest:
        rows = list(csv.DictReader(manifest))[:limit]
    for row in rows:
        digits = [int(ch) for ch in row["givens"]]
        truth = Puzzle.from_rows([digits[r * 9 : r * 9 + 9] for r in range(9)], GridShape(3, 3))
        path = root / row["image"]
        loaded = load_page(next(iter(expand_input(path, label=str(path)))))
        yield Page("photos", row["image"], loaded.pixels, loaded.damaged, [truth])


def book_pages(every: int) -> Iterator[Page]:
    root = shared_data_dir() / BOOKS
    pages = load_pages(root)[::every]
    for variant in ("pdf", "scan"):
        for page in pages:
            truths = [Puzzle.from_rows(_rows(g.givens, g.shape.size), g.shape) for g in page.grids]
            pixels = render(root, page, variant)
            yield Page(f"books-dev {variant}", f"{page.file} p{page.page}", pixels, None, truths)


def style_pages(
    conditions: Sequence[str] = ("150", "scan"), misprint: bool = False
) -> Iterator[Page]:
    """Each print style's page of ``bench.styles``, its grids dug to one solution each (only
    a unique puzzle can be certified); ``misprint``: each grid printed with one given changed
    to another given's digit in its row (a clash in the print: its true verdict is none)."""
    for condition in conditions:
        for name, styled in SETS.items():
            seed = zlib.crc32(f"{name}:unique".encode())
            rng = np.random.default_rng(seed)
            givens = round(styled.shape.size**2 * styled.fill)
            puzzles = [unique_puzzle(styled.shape, rng, givens=givens) for _ in range(styled.count)]
            if misprint:
                puzzles = [GeneratedPuzzle(misprinted(p.puzzle), p.solution) for p in puzzles]
            dpi = SCAN_DPI if condition == "scan" else 150
            page = styled_page(puzzles, styled.style, dpi=dpi, columns=styled.columns, rng=rng)
            pixels = page.image
            if condition == "scan":
                pixels = degrade.scan(pixels, np.random.default_rng(seed), degrade.FLATBED)
            truths = [g.generated.puzzle for g in page.grids]
            source = f"misprints {condition}" if misprint else f"styles {condition}"
            yield Page(source, name, pixels, None, truths)


def misprinted(puzzle: Puzzle) -> Puzzle:
    """The puzzle with the first given of the first row that holds two printed with the
    second's digit."""
    rows = [list(row) for row in puzzle.givens]
    for row in rows:
        printed = [c for c, v in enumerate(row) if v]
        if len(printed) >= 2:
            row[printed[0]] = row[printed[1]]
            return Puzzle.from_rows(rows, puzzle.shape)
    raise ValueError("no row holds two givens")


def _rows(flat: Sequence[int], n: int) -> list[list[int | None]]:
    return [[None if v < 0 else v for v in flat[r * n : r * n + n]] for r in range(n)]


def read_pages(pages: Iterator[Page]) -> list[GridOutcome]:
    engine, backend = make_engine(), make_backend()
    outcomes = []
    for page in pages:
        try:
            boards = rectify_page(page.pixels, page.damaged)
        except (NoGridFound, LatticeNotFound):
            boards = []
        recognised = [recognise_board(b.board, b.cells, engine) for b in boards]
        readings = [r.reading for r in recognised]
        truth_reads = [_flat(t) for t in page.truths]
        read_flat = [_flat(r.puzzle()) for r in readings]
        matched = _match(page.truths, truth_reads, readings, read_flat)
        for index, (board, reading) in enumerate(zip(recognised, readings, strict=True)):
            truth = matched.get(index)
            truth_solution = truth_verdict = None
            if truth is not None:
                truth_result = solve_puzzle(truth, backend, TIMEOUT)
                truth_solution, truth_verdict = truth_result.solution, truth_result.verdict
            solved = solve_reading(reading, backend, TIMEOUT)
            outcomes.append(
                GridOutcome(
                    page.source,
                    f"{page.where} #{index}",
                    reading,
                    BoardFacts.of_board(board.board),
                    solved,
                    truth,
                    truth_solution,
                    truth_verdict,
                )
            )
        missing = len(page.truths) - len(matched)
        for k in range(missing):
            outcomes.append(
                GridOutcome(page.source, f"{page.where} missing {k}", None, None, None, None, None)
            )
        print(f"read {page.source} {page.where}: {len(readings)} boards", flush=True)
    return outcomes


def _flat(puzzle: Puzzle) -> tuple[int, ...]:
    return tuple(-1 if v is None else v for row in puzzle.givens for v in row)


def _match(truths, truth_flat, readings, read_flat) -> dict[int, Puzzle]:
    """Board index -> its true grid, matched by content as bench.books does (same size only)."""
    from bench.books import Read, TrueGrid

    grids = [
        TrueGrid(i, t.shape, f) for i, (t, f) in enumerate(zip(truths, truth_flat, strict=True))
    ]
    reads = [Read(r.shape, f) for r, f in zip(readings, read_flat, strict=True)]
    out = {}
    for grid, j in zip(grids, match(grids, reads), strict=True):
        if j is not None and reads[j].shape.size == grid.shape.size:
            out[j] = truths[grid.index]
    return out


# -- figures ------------------------------------------------------------------------------


def doubted(outcomes: list[GridOutcome]) -> None:
    """Per source, the confidence of the readings doubted to solve a grid: those that are not
    what is printed (misreads) and those that are (a misprint, or the given it clashes with);
    the digit threshold should fall between."""
    print("\nreadings doubted to solve a grid")
    for source, of_source in _by_source(outcomes).items():
        misread, as_printed = [], []
        for o in of_source:
            if o.solved is None or o.truth is None or o.truth.shape != o.reading.shape:
                continue
            for d in o.solved.doubts:
                printed = o.truth.givens[d.row][d.col]
                (as_printed if printed == d.read else misread).append(d.confidence)
        print(
            f"  {source:<16} misread {len(misread)} (highest {max(misread, default=0):.4f}),"
            f" as printed {len(as_printed)} (lowest {min(as_printed, default=1):.4f})"
        )


def after(outcome: GridOutcome, policy: CertifyPolicy) -> tuple[PuzzleSolution, bool]:
    solved = printed_verdict(outcome.reading.puzzle(), outcome.solved, policy.confident_reading)
    return solved, certify(outcome.reading, solved, outcome.facts, policy).certified


def outcome_wrong(outcome: GridOutcome, solved: PuzzleSolution) -> bool:
    """The grid's reading or solution is not the truth (or there is no true grid there)."""
    if outcome.truth is None:
        return True
    return not outcome.read_right or solved.result.solution != outcome.truth_solution


def verdict_contradicted(outcome: GridOutcome, solved: PuzzleSolution) -> bool:
    verdict = solved.result.verdict
    if outcome.truth is None:
        return verdict is not Verdict.NOT_SUDOKU
    if outcome.reading.shape.size != outcome.truth.shape.size:
        return False
    if _no_solution(verdict) != _no_solution(outcome.truth_verdict) or (
        not _no_solution(verdict) and verdict is not outcome.truth_verdict
    ):
        return True
    return verdict is Verdict.SOLVED and solved.result.solution != outcome.truth_solution


def _no_solution(verdict: Verdict | None) -> bool:
    """Clashing givens (invalid) and givens with no solution are one verdict to a reader."""
    return verdict in (Verdict.INVALID, Verdict.UNSOLVABLE)


def bands(values: list[float]) -> str:
    counts = np.histogram(values, bins=BANDS)[0] if values else [0] * (len(BANDS) - 1)
    return " ".join(f"{int(n):>6}" for n in counts)


def distribution(outcomes: list[GridOutcome]) -> None:
    heads = " ".join(f"{f'<{hi:g}':>6}" for hi in BANDS[1:-1]) + "    >=0.999"
    print(f"\nconfidence of readings, in bands ({heads})")
    for source, of_source in _by_source(outcomes).items():
        cells = defaultdict(list)
        for o in of_source:
            if o.truth is None or o.reading.shape != o.truth.shape:
                continue
            for cell in o.reading.cells:
                true = o.truth.givens[cell.row][cell.col]
                if cell.confidence is None:
                    continue
                if cell.kind is CellKind.GIVEN:
                    cells["given right" if cell.digit == true else "given wrong"].append(
                        cell.confidence
                    )
                elif cell.kind is CellKind.EMPTY:
                    cells["empty right" if true == 0 else "empty wrong"].append(cell.confidence)
        for kind in ("given right", "given wrong", "empty right", "empty wrong"):
            highest = f", highest {max(cells[kind]):.4f}" if "wrong" in kind and cells[kind] else ""
            print(f"  {source:<16} {kind:<12} {bands(cells[kind])}  ({len(cells[kind])}{highest})")
        lowest_right = [o.reading.lowest_confidence() or 1.0 for o in of_source if o.read_right]
        lowest_wrong = [
            o.reading.lowest_confidence() or 1.0
            for o in of_source
            if o.truth is not None and not o.read_right
        ]
        print(f"  {source:<16} {'grid lowest, right':<12} {bands(lowest_right)}")
        print(f"  {source:<16} {'grid lowest, wrong':<12} {bands(lowest_wrong)}")


def sweep(outcomes: list[GridOutcome]) -> list[CertifyPolicy]:
    """Certified and certified-wrong per source for each threshold pair; the pairs that
    certify no wrong grid, call no misread a misprint and miss no misprint, on any source."""
    by_source = _by_source(outcomes)
    names = list(by_source)
    print(
        "\ncertified (wrong; verdicts the truth contradicts added by calling a doubted reading "
        "confident; verdicts the truth contradicts in all) per source, for each threshold pair "
        "(digit, empty)"
    )
    print("| digit | empty | " + " | ".join(names) + " |")
    print("|---:|---:|" + "---:|" * len(names))
    feasible = []
    for digit, empty in itertools.product(DIGIT_THRESHOLDS, EMPTY_THRESHOLDS):
        policy = CertifyPolicy(digit, empty)
        cells, wrong_anywhere = [], False
        for name in names:
            grids = [o for o in by_source[name] if o.reading is not None]
            certified = wrong = added = left = 0
            for o in grids:
                solved, sure = after(o, policy)
                certified += sure
                wrong += sure and outcome_wrong(o, solved)
                contradicted = verdict_contradicted(o, solved)
                added += contradicted and not verdict_contradicted(o, o.solved)
                left += contradicted
            misprint_left = left if name.startswith("misprints") else 0
            wrong_anywhere |= wrong > 0 or added > 0 or misprint_left > 0
            cells.append(f"{certified}/{len(grids)} ({wrong}; {added}; {left})")
        print(f"| {digit} | {empty} | " + " | ".join(cells) + " |")
        if not wrong_anywhere:
            feasible.append(policy)
    return feasible


def before_after(outcomes: list[GridOutcome], policy: CertifyPolicy) -> None:
    print(
        f"\nbefore (main: solved after any doubt) and after (confident {policy.confident_reading},"
        f" empty {policy.confident_empty})"
    )
    print(
        "| source | grids | not found | fully right as read | contradicted before | solved before "
        "| contradicted after | solved after | certified | certified wrong |"
    )
    print("|---|" + "---:|" * 9)
    for name, of_source in _by_source(outcomes).items():
        grids = [o for o in of_source if o.reading is not None]
        truths = sum(o.truth is not None for o in grids) + sum(o.reading is None for o in of_source)
        missing = sum(o.reading is None for o in of_source)
        right = sum(o.read_right for o in grids)
        before_wrong = sum(verdict_contradicted(o, o.solved) for o in grids)
        solved_before = sum(o.solved.result.verdict is Verdict.SOLVED for o in grids)
        after_wrong = certified = certified_wrong = solved_after = 0
        for o in grids:
            solved, sure = after(o, policy)
            after_wrong += verdict_contradicted(o, solved)
            solved_after += solved.result.verdict is Verdict.SOLVED
            certified += sure
            certified_wrong += sure and outcome_wrong(o, solved)
        share = f"{certified}/{len(grids)} = {certified / max(len(grids), 1):.1%}"
        print(
            f"| {name} | {truths} | {missing} | {right} | {before_wrong} | {solved_before} "
            f"| {after_wrong} | {solved_after} | {share} | {certified_wrong} |"
        )


def _by_source(outcomes: list[GridOutcome]) -> dict[str, list[GridOutcome]]:
    grouped: dict[str, list[GridOutcome]] = defaultdict(list)
    for o in outcomes:
        grouped[o.source].append(o)
    return grouped


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="photos: the first N only")
    parser.add_argument("--every", type=int, default=2, help="books-dev: every k-th page")
    parser.add_argument("--cache", type=Path, default=None, help="keep or reuse the readings")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.cache is not None and args.cache.exists():
        outcomes = pickle.loads(args.cache.read_bytes())
    else:
        pages = itertools.chain(photo_pages(args.limit), book_pages(args.every), style_pages())
        outcomes = read_pages(pages)
    if not any(o.source.startswith("misprints") for o in outcomes):
        outcomes += read_pages(style_pages(("150",), misprint=True))
    if args.cache is not None:
        args.cache.write_bytes(pickle.dumps(outcomes))
    distribution(outcomes)
    doubted(outcomes)
    feasible = sweep(outcomes)
    default = CertifyPolicy()
    same_empty = [p for p in feasible if p.confident_empty == default.confident_empty]
    digits = sorted(p.confident_reading for p in same_empty)
    print(
        f"\ndigit thresholds with no wrong certified grid, no misread called a misprint and no"
        f" misprint missed on any source (empty {default.confident_empty}): {digits};"
        f" the default {default.confident_reading} is {'' if default in feasible else 'NOT '}"
        "among them (the middle of the range keeps a margin to either side)"
    )
    before_after(outcomes, default)


if __name__ == "__main__":
    main()
