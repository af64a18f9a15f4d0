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
