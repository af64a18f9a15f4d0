"""The CaDiCaL backend: python-sat's CaDiCaL 1.9.5, in-process, one solver object per CNF.

No process launch, so it is the fast choice for many small puzzles. python-sat cannot interrupt
this CaDiCaL from another thread (``interrupt`` raises NotImplementedError), so the time limit
is kept between slices of search: each ``solve_limited`` call runs up to a conflict budget and
the next resumes where it stopped, learned clauses kept.
"""

from __future__ import annotations

import time

from pysat.solvers import Cadical195

from pipeline.errors import SolverFailed
from pipeline.solve.backend import Cnf, SatOutcome, SatStatus

# Measured on the hard 25x25 set: about 40 us a conflict, so a slice of 1,000 overshoots the
# deadline by at most a few tens of milliseconds; 9x9 puzzles rarely need a second slice.
SLICE_CONFLICTS = 1_000


class CadicalBackend:
    name = "cadical"

    def solve_cnf(self, cnf: Cnf, timeout: float) -> SatOutcome:
        started = time.perf_counter()
        deadline = started + timeout
        try:
            with Cadical195(bootstrap_with=cnf.clauses) as solver:
                while True:
                    solver.conf_budget(SLICE_CONFLICTS)
                    satisfiable = solver.solve_limited()
                    if satisfiable is not None or time.perf_counter() >= deadline:
                        break
                model = solver.get_model() if satisfiable else None
        except (RuntimeError, ValueError, TypeError, NotImplementedError) as error:
            raise SolverFailed(f"CaDiCaL (python-sat) failed: {error}") from error
        seconds = time.perf_counter() - started
        if satisfiable is None:
            return SatOutcome(SatStatus.UNKNOWN, seconds=seconds)
        if not satisfiable:
            return SatOutcome(SatStatus.UNSAT, seconds=seconds)
        if model is None:
            raise SolverFailed("CaDiCaL (python-sat) said satisfiable but gave no model")
        return SatOutcome(SatStatus.SAT, frozenset(x for x in model if x > 0), seconds)
