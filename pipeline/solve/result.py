"""What solving a puzzle found."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pipeline.grid import Grid


class Verdict(StrEnum):
    SOLVED = "solved"  # exactly one solution
    MULTIPLE_SOLUTIONS = "multiple_solutions"  # two distinct solutions found, both kept
    UNSOLVABLE = "unsolvable"  # the givens admit no solution
    TIMEOUT = "timeout"  # the solver ran out of time before deciding
    INVALID = "invalid"  # the givens clash, or size/symbols are wrong


@dataclass(frozen=True)
class SolveResult:
    verdict: Verdict
    solution: Grid | None = None  # checked by independent code before it is reported
    second_solution: Grid | None = None  # with MULTIPLE_SOLUTIONS
    message: str = ""  # why, for anything that is not SOLVED
    seconds: float = 0.0
    backend: str = ""
