"""The SAT backend seam: a CNF goes in, SAT with a model, UNSAT or UNKNOWN comes out.

A second solver is a new module implementing ``SatBackend``, registered in
``pipeline.solve.backends``; nothing else changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


@dataclass(frozen=True)
class Cnf:
    """A formula in conjunctive normal form over variables 1..num_vars (DIMACS numbering)."""

    num_vars: int
    clauses: tuple[tuple[int, ...], ...]


class SatStatus(StrEnum):
    SAT = "sat"
    UNSAT = "unsat"
    UNKNOWN = "unknown"  # time limit reached, or the solver gave up


@dataclass(frozen=True)
class SatOutcome:
    status: SatStatus
    true_vars: frozenset[int] = frozenset()  # the model's positive literals, when SAT
    seconds: float = 0.0


class SatBackend(Protocol):
    """Runs one CNF. Implementations must enforce ``timeout`` themselves (UNKNOWN past it), must
    not add their own parallelism (the runner owns the cores), and raise
    ``pipeline.errors.SolverFailed`` for a crash or an answer that is not a valid result."""

    name: str

    def solve_cnf(self, cnf: Cnf, timeout: float) -> SatOutcome: ...

    def solve_cnf_twice(
        self, cnf: Cnf, distinct_vars: int, timeout: float
    ) -> tuple[SatOutcome, SatOutcome | None]:
        """Solve ``cnf``, then, if it was SAT, solve it again for a model whose true variables
        among 1..``distinct_vars`` differ from the first's (UNSAT: the first was the only one).
        Both within ``timeout`` in all; the second is None unless the first is SAT. A backend
        that can add a clause to its live solver should: learned clauses make the second fast.
        """
        ...


def blocking_clause(true_vars: frozenset[int], distinct_vars: int) -> tuple[int, ...]:
    """The clause that rules out a model's true variables among 1..``distinct_vars``."""
    return tuple(-v for v in range(1, distinct_vars + 1) if v in true_vars)
