"""Solving only what is cheap and certain: the server's OCR task settles a reading itself when
propagation decides it or the in-process solver does within a conflict budget; anything else
goes to a solve task of its own (docs/server.md, "Where puzzles are solved").

A budgeted backend answers SAT or UNSAT, or raises ``BeyondBudget``: an UNKNOWN here is no
verdict (the budget, not the puzzle's solve timeout, ran out), so nothing is recorded from it.
It bears the configured backend's name, so a puzzle settled here records the same row as one
the full backend settles (``tests/integration/test_same_rows.py``).
"""

from __future__ import annotations

import math

from sudoku_batch.pipeline.solve.backend import Cnf, SatBackend, SatOutcome, SatStatus
from sudoku_batch.pipeline.solve.backends import PYSAT_SOLVERS

# The in-process solver each backend's inline searches run on: MiniSat for auto (its quick
# half), the backend itself when it is in-process; Kissat runs only in a solve task.
INLINE_SOLVER = {"auto": "minisat", "minisat": "minisat", "cadical": "cadical"}
# Conflicts a search: every 9x9 and 16x16 of the public sets and the books (bench.inline_solve,
# docs/server.md), as the auto backend's own MiniSat budget (pipeline.solve.auto) settles them.
DEFAULT_INLINE_CONFLICTS = 2_000


class BeyondBudget(Exception):
    """A search the inline budget did not settle: the reading goes to a solve task."""


class BudgetedBackend:
    """``quick`` (an in-process backend that gives up with UNKNOWN), answering only what it
    settles; named ``name``."""

    def __init__(self, name: str, quick: SatBackend):
        self.name = name
        self.quick = quick

    def solve_cnf(self, cnf: Cnf, timeout: float) -> SatOutcome:
        return _settled(self.quick.solve_cnf(cnf, timeout))

    def solve_cnf_twice(
        self, cnf: Cnf, distinct_vars: int, timeout: float
    ) -> tuple[SatOutcome, SatOutcome | None]:
        first, second = self.quick.solve_cnf_twice(cnf, distinct_vars, timeout)
        return _settled(first), None if second is None else _settled(second)


def budgeted_backend(name: str, conflicts: int) -> BudgetedBackend:
    """The inline backend for the configured backend ``name``: its in-process solver within
    ``conflicts`` conflicts a search (rounded up to whole slices of
    ``pysat_backend.SLICE_CONFLICTS``); no search at all for Kissat or a budget of 0, so only
    what propagation decides is settled."""
    from sudoku_batch.pipeline.solve.pysat_backend import SLICE_CONFLICTS, PysatBackend

    solver = INLINE_SOLVER.get(name, "minisat")
    slices = math.ceil(conflicts / SLICE_CONFLICTS) if name in INLINE_SOLVER else 0
    return BudgetedBackend(name, PysatBackend(solver, PYSAT_SOLVERS[solver], slices))


def _settled(outcome: SatOutcome) -> SatOutcome:
    if outcome.status is SatStatus.UNKNOWN:
        raise BeyondBudget(f"no answer within the inline budget ({outcome.seconds:.3f} s)")
    return outcome
