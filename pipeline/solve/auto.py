"""The "auto" backend: in-process MiniSat first, Kissat for what it does not settle quickly.

Measured (bench/solve.py, backends interleaved, median CPU ms per puzzle with uniqueness, 300 a
set): in-process MiniSat is the fastest on the 9x9 sets (forum_hardest_1106 1.86 ms against
CaDiCaL 2.60 and Kissat 7.05, which launches twice) and ties on 16x16 and the easy 25x25s,
because it needs no process launch and proves uniqueness incrementally; on the hard gecode
25x25s Kissat ``--plain`` is much better (median 2.2 s against MiniSat 4.5 s; 16 of 18 within
10 s against 11), and there the proof of uniqueness, not the first solution, takes most of the
time. So MiniSat gets a small conflict budget per search; a puzzle that exhausts it goes to
Kissat, which then does only what is left: both solves, or just the uniqueness proof when
MiniSat found a solution. In the same run auto matched the best backend on every set (within
noise): forum_hardest_1106 1.83 ms, gecode_25x25 2.27 s and 16 of 18 solved.

Faster ways to prove the hard 25x25s unique are measured in docs/solving.md: one won (Kissat's
proof run starts with its first run's learned clauses, pipeline.solve.kissat), the rest did not.
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

# Slices of pysat_backend.SLICE_CONFLICTS conflicts per search. Measured, the most conflicts
# MiniSat needs in one search: forum_hardest_1106 315, magictour (first 300) 88, gecode_16x16 12,
# eliejaz_25x25 1,563; the hard gecode 25x25s need tens of thousands, so 2,000 sends only those
# on, at a cost of about 0.1 s each (some 5% of what they take).
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
