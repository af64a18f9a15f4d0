"""In-process backends: python-sat's solvers (CaDiCaL 1.9.5, MiniSat 2.2), by name.

No process launch, and the uniqueness check reuses the solver that found the first solution
(one clause added, learned clauses kept), so they are the fast choice for many small puzzles.
python-sat cannot interrupt its CaDiCaL from another thread (``interrupt`` raises
NotImplementedError), so the time limit is kept the same way for every solver, between slices
of search: each ``solve_limited`` call runs up to a conflict budget and the next resumes where
it stopped.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

from pysat.solvers import Solver

from sudoku_batch.pipeline.errors import SolverFailed
from sudoku_batch.pipeline.solve.backend import Cnf, SatOutcome, SatStatus, blocking_clause

# Conflicts are cheap even on the hardest 25x25s, so a slice overshoots the deadline by little;
# 9x9 puzzles rarely need a second slice.
SLICE_CONFLICTS = 1_000


class PysatBackend:
    """One of python-sat's in-process solvers, by its python-sat name (``solver``). With
    ``slices``, each search also gives up (UNKNOWN) after that many slices of conflicts."""

    def __init__(self, name: str, solver: str, slices: int | None = None):
        self.name = name
        self.solver = solver
        self.slices = slices

    def solve_cnf(self, cnf: Cnf, timeout: float) -> SatOutcome:
        return self.solve_cnf_twice(cnf, 0, timeout, stop_after_first=True)[0]

    def solve_cnf_twice(
        self, cnf: Cnf, distinct_vars: int, timeout: float, stop_after_first: bool = False
    ) -> tuple[SatOutcome, SatOutcome | None]:
        deadline = time.perf_counter() + timeout
        try:
            with Solver(name=self.solver, bootstrap_with=cnf.clauses) as solver:
                first = search_until(solver, deadline, self.slices)
                if first.status is not SatStatus.SAT or stop_after_first:
                    return first, None
                solver.add_clause(blocking_clause(first.true_vars, distinct_vars))
                return first, search_until(solver, deadline, self.slices)
        except (RuntimeError, ValueError, TypeError, NotImplementedError) as error:
            raise SolverFailed(f"{self.solver} (python-sat) failed: {error}") from error


def search_until(
    solver: Solver, deadline: float, slices: int | None = None, assumptions: Sequence[int] = ()
) -> SatOutcome:
    """One search of ``solver`` under ``assumptions``, in slices of conflicts until it answers,
    ``deadline`` passes or, with ``slices``, that many slices are spent (then UNKNOWN)."""
    started = time.perf_counter()
    satisfiable = None
    for _ in itertools.count() if slices is None else range(slices):
        solver.conf_budget(SLICE_CONFLICTS)
        satisfiable = solver.solve_limited(assumptions=assumptions)
        if satisfiable is not None or time.perf_counter() >= deadline:
            break
    seconds = time.perf_counter() - started
    if satisfiable is None:
        return SatOutcome(SatStatus.UNKNOWN, seconds=seconds)
    if not satisfiable:
        return SatOutcome(SatStatus.UNSAT, seconds=seconds)
    model = solver.get_model()
    if model is None:
        raise SolverFailed("python-sat said satisfiable but gave no model")
    return SatOutcome(SatStatus.SAT, frozenset(x for x in model if x > 0), seconds)
