"""The CaDiCaL backend: python-sat's CaDiCaL 1.9.5, in-process, one solver object per CNF.

No process launch, so it is the fast choice for many small puzzles. The time limit is a timer
thread that interrupts the search; ``solve_limited`` then returns None.
"""

from __future__ import annotations

import threading
import time

from pysat.solvers import Cadical195

from pipeline.errors import SolverFailed
from pipeline.solve.backend import Cnf, SatOutcome, SatStatus


class CadicalBackend:
    name = "cadical"

    def solve_cnf(self, cnf: Cnf, timeout: float) -> SatOutcome:
        started = time.perf_counter()
        try:
            with Cadical195(bootstrap_with=cnf.clauses) as solver:
                timer = threading.Timer(timeout, solver.interrupt)
                timer.start()
                try:
                    satisfiable = solver.solve_limited(expect_interrupt=True)
                finally:
                    timer.cancel()
                model = solver.get_model() if satisfiable else None
        except (RuntimeError, ValueError, TypeError) as error:
            raise SolverFailed(f"CaDiCaL (python-sat) failed: {error}") from error
        seconds = time.perf_counter() - started
        if satisfiable is None:
            return SatOutcome(SatStatus.UNKNOWN, seconds=seconds)
        if not satisfiable:
            return SatOutcome(SatStatus.UNSAT, seconds=seconds)
        if model is None:
            raise SolverFailed("CaDiCaL (python-sat) said satisfiable but gave no model")
        return SatOutcome(SatStatus.SAT, frozenset(x for x in model if x > 0), seconds)
