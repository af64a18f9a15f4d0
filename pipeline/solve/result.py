"""What solving a puzzle found."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sudoku_batch.pipeline.grid import Grid, Puzzle


class Verdict(StrEnum):
    SOLVED = "solved"  # exactly one solution
    MULTIPLE_SOLUTIONS = "multiple_solutions"  # two distinct solutions found, both kept
    UNSOLVABLE = "unsolvable"  # the givens admit no solution
    TIMEOUT = "timeout"  # the solver ran out of time before deciding
    INVALID = "invalid"  # the givens clash, or size/symbols are wrong
    NOT_SUDOKU = "not_sudoku"  # no verdict: the grid is no Sudoku (pipeline.recognise.grid_kind)


@dataclass(frozen=True)
class SolveResult:
    verdict: Verdict
    solution: Grid | None = None  # checked by independent code before it is reported
    second_solution: Grid | None = None  # with MULTIPLE_SOLUTIONS
    message: str = ""  # why, for anything that is not SOLVED
    seconds: float = 0.0
    backend: str = ""


@dataclass(frozen=True)
class Doubt:
    """A reading the solver set aside because the readings contradicted each other.

    ``replaced_by`` is the digit used instead (a runner-up reading), or 0 when the cell was
    treated as empty.
    """

    row: int
    col: int
    read: int
    confidence: float
    replaced_by: int


@dataclass(frozen=True)
class PuzzleSolution:
    """The outcome of solving one read board: the puzzle as finally solved (after any doubts),
    the verdict and solution, and which readings were doubted."""

    puzzle: Puzzle
    result: SolveResult
    doubts: tuple[Doubt, ...] = ()
