"""Solving what recognition read, doubting the least certain readings when they contradict.

A misread digit usually shows as givens that clash or admit no solution. Then the reading's
confidences say which cells to doubt: each doubtable given may be replaced by one of its
runner-up digits or treated as empty, and the change sets are tried most probable first (the
product, over the changed cells, of how likely the replacement is against the reading kept),
until one gives a puzzle with exactly one solution. The work is bounded: a few changes at a
time, among the least confident cells, and a cap on solver runs and on total time.

A digit that recognition missed altogether (multiple solutions) is out of scope: nothing here
adds givens.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import Puzzle
from sudoku_batch.pipeline.reading import BoardReading
from sudoku_batch.pipeline.solve.backend import SatBackend
from sudoku_batch.pipeline.solve.encode import find_clashes
from sudoku_batch.pipeline.solve.result import Doubt, PuzzleSolution, SolveResult, Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle

MAX_CHANGES = 3  # readings doubted at once
DOUBTABLE_CELLS = 12  # the least confident givens are the only ones doubted
MAX_SOLVER_RUNS = 40  # change sets actually solved (those that still clash cost no solver run)
MAX_CHANGE_SETS = 2_000  # change sets looked at in all
# Treating a cell as empty is never ruled out, however sure the reader was that it held some
# digit; this is the least probability given to "none of the digits read".
MIN_EMPTY_PROBABILITY = 1e-3


@dataclass(frozen=True)
class _Change:
    doubt: Doubt
    odds: float  # P(replacement is right) / P(reading is right)


def solve_reading(reading: BoardReading, backend: SatBackend, timeout: float) -> PuzzleSolution:
    """Solve the read board, doubting readings if they contradict (see the module notes).
    ``timeout`` bounds the whole, doubts included."""
    deadline = time.perf_counter() + timeout
    puzzle = reading.puzzle()
    first = solve_puzzle(puzzle, backend, timeout)
    if first.verdict not in (Verdict.INVALID, Verdict.UNSOLVABLE):
        return PuzzleSolution(puzzle, first)
    runs = 0
    for changes in itertools.islice(_change_sets(reading), MAX_CHANGE_SETS):
        remaining = deadline - time.perf_counter()
        if runs == MAX_SOLVER_RUNS or remaining <= 0:
            break
        candidate = _apply(puzzle, changes)
        if find_clashes(candidate):
            continue
        runs += 1
        result = solve_puzzle(candidate, backend, remaining)
        if result.verdict is Verdict.SOLVED:
            return PuzzleSolution(candidate, result, tuple(change.doubt for change in changes))
    return PuzzleSolution(puzzle, _gave_up(first, runs))


def _gave_up(first: SolveResult, runs: int) -> SolveResult:
    why = f"{first.message}; doubting the least certain readings ({runs} tries) did not help"
    return SolveResult(first.verdict, message=why, seconds=first.seconds, backend=first.backend)


def _apply(puzzle: Puzzle, changes: tuple[_Change, ...]) -> Puzzle:
    rows = [list(row) for row in puzzle.givens]
    for change in changes:
        rows[change.doubt.row][change.doubt.col] = change.doubt.replaced_by
    return Puzzle.from_rows(rows, puzzle.shape)


def _change_sets(reading: BoardReading) -> Iterator[tuple[_Change, ...]]:
    """Sets of changes to at most ``MAX_CHANGES`` distinct cells, most probable first."""
    per_cell = _changes_per_cell(reading)
    scored = []
    for size in range(1, min(MAX_CHANGES, len(per_cell)) + 1):
        for cells in itertools.combinations(per_cell, size):
            for changes in itertools.product(*cells):
                scored.append((math.prod(change.odds for change in changes), changes))
    for _, changes in heapq.nlargest(MAX_CHANGE_SETS, scored, key=lambda item: item[0]):
        yield changes


def _changes_per_cell(reading: BoardReading) -> list[list[_Change]]:
    """For each of the least confident givens, its possible replacements."""
    n = reading.shape.size
    givens = [
        cell
        for cell in reading.cells
        if cell.kind is CellKind.GIVEN and cell.digit is not None and cell.confidence is not None
    ]
    givens.sort(key=lambda cell: cell.confidence)
    per_cell = []
    for cell in givens[:DOUBTABLE_CELLS]:
        kept = max(cell.confidence, MIN_EMPTY_PROBABILITY)
        runner_ups = [(d, p) for d, p in cell.alternatives if 1 <= d <= n and d != cell.digit]
        # "Empty" carries the probability left over for every digit not read at all.
        none_of_them = max(1.0 - kept - sum(p for _, p in runner_ups), MIN_EMPTY_PROBABILITY)
        options = [*runner_ups, (0, none_of_them)]
        per_cell.append(
            [
                _Change(Doubt(cell.row, cell.col, cell.digit, cell.confidence, digit), p / kept)
                for digit, p in options
            ]
        )
    return per_cell
