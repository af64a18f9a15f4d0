"""What solving a puzzle found."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from sudoku_batch.pipeline.grid import Grid, Puzzle

if TYPE_CHECKING:  # entries checks solutions: it imports this module
    from sudoku_batch.pipeline.solve.entries import EntryCheck


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
class Suggestion:
    """A repaired reading of a printed puzzle that has no solution as read
    (``pipeline.solve.repairs``): its givens, their one solution, and the readings changed."""

    givens: Grid
    solution: Grid
    doubts: tuple[Doubt, ...]


@dataclass(frozen=True)
class PuzzleSolution:
    """The outcome of solving one read board: the puzzle as finally solved (after any doubts),
    the verdict and solution, and which readings were doubted; ``suggestion``: a repaired
    reading, when the printed puzzle as read has no solution; ``certificate``: whether the
    outcome can be trusted unseen (``pipeline.certify``), None until judged; ``entries_check``:
    a solver's handwritten entries and pencil marks checked against the unique solution
    (``pipeline.solve.entries``), None when there is no unique solution to check them by."""

    puzzle: Puzzle
    result: SolveResult
    doubts: tuple[Doubt, ...] = ()
    suggestion: Suggestion | None = None
    certificate: Certificate | None = None
    entries_check: tuple[EntryCheck, ...] | None = None


@dataclass(frozen=True)
class ReviewReason:
    """Why a grid needs a person's look: a short machine code and a message."""

    code: str
    message: str


@dataclass(frozen=True)
class Certificate:
    """``certified``: the outcome needs no review; else ``reasons`` says why."""

    certified: bool
    reasons: tuple[ReviewReason, ...] = ()
