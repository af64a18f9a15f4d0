"""The "auto" backend: in-process MiniSat first, Kissat for what it does not settle quickly.

In-process MiniSat needs no process launch and proves uniqueness incrementally, so it is the
fastest on the puzzles most sets hold; on the hardest 25x25s Kissat ``--plain`` is much faster,
and there the proof of uniqueness, not the first solution, takes most of the time. So MiniSat
gets a small conflict budget per search; a puzzle that exhausts it goes to Kissat, which then
does only what is left: both solves, or just the uniqueness proof when MiniSat found a
solution. ``bench/solve.py`` compares the backends and auto on each set.
"""

from __future__ import annotations

import time

from sudoku_batch.pipeline.solve.backend import (
    Cnf,
    SatBackend,
    SatOutcome,
    SatStatus,
    blocking_clause,
)

# Slices of pysat_backend.SLICE_CONFLICTS conflicts per search: more than any puzzle of the
# public sets but the hardest 25x25s needs in one search, so only those go on to Kissat, and
# what MiniSat spent on them first is small beside what they take.
QUICK_SLICES = 2


class AutoBackend:
    name = "auto"

    def __init__(self, quick: SatBackend, thorough: SatBackend):
        self.quick = quick  # gives up (UNKNOWN) early, e.g. PysatBackend(slices=QUICK_SLICES)
        self.thorough = thorough

    def solve_cnf(self, cnf: Cnf, timeout: float) -> SatOutcome:
        started = time.perf_counter()
        outcome = self.quick.solve_cnf(cnf, timeout)
        if outcome.status is not SatStatus.UNKNOWN:
            return outcome
        return self.thorough.solve_cnf(cnf, timeout - (time.perf_counter() - started))

    def solve_cnf_twice(
        self, cnf: Cnf, distinct_vars: int, timeout: float
    ) -> tuple[SatOutcome, SatOutcome | None]:
        started = time.perf_counter()
        first, second = self.quick.solve_cnf_twice(cnf, distinct_vars, timeout)
        remaining = timeout - (time.perf_counter() - started)
        if first.status is SatStatus.UNKNOWN:
            return self.thorough.solve_cnf_twice(cnf, distinct_vars, remaining)
        if second is None or second.status is not SatStatus.UNKNOWN:
            return first, second
        blocked = Cnf(cnf.num_vars, (*cnf.clauses, blocking_clause(first.true_vars, distinct_vars)))
        return first, self.thorough.solve_cnf(blocked, remaining)
