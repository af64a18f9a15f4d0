"""The auto backend hands to Kissat what in-process MiniSat does not settle within its budget."""

from __future__ import annotations

from sudoku_batch.pipeline.solve.auto import AutoBackend
from sudoku_batch.pipeline.solve.backend import Cnf, SatOutcome, SatStatus
from sudoku_batch.pipeline.solve.pysat_backend import PysatBackend
from tests.solve.test_kissat import pigeonhole

TWO_MODELS = Cnf(2, ((1, 2), (-1, -2)))  # exactly one of x1, x2


class Recording:
    """Wraps a backend and records which calls reached it."""

    def __init__(self, inner):
        self.inner, self.name, self.calls = inner, inner.name, []

    def solve_cnf(self, cnf, timeout):
        self.calls.append(("solve_cnf", len(cnf.clauses)))
        return self.inner.solve_cnf(cnf, timeout)

    def solve_cnf_twice(self, cnf, distinct_vars, timeout):
        self.calls.append(("solve_cnf_twice", len(cnf.clauses)))
        return self.inner.solve_cnf_twice(cnf, distinct_vars, timeout)


class FindsOnlyTheFirst:
    """A quick backend that finds a model but runs out of budget proving it is the only one."""

    name = "quick"

    def solve_cnf_twice(self, cnf, distinct_vars, timeout):
        first = PysatBackend("minisat", "minisat22").solve_cnf(cnf, timeout)
        return first, SatOutcome(SatStatus.UNKNOWN)


def test_what_the_quick_backend_settles_never_reaches_kissat(kissat):
    thorough = Recording(kissat)
    auto = AutoBackend(PysatBackend("minisat", "minisat22", slices=2), thorough)
    first, second = auto.solve_cnf_twice(TWO_MODELS, 2, 10)
    assert first.status is SatStatus.SAT and second.status is SatStatus.SAT
    assert thorough.calls == []


def test_a_search_past_the_budget_goes_to_kissat(kissat):
    thorough = Recording(kissat)
    auto = AutoBackend(PysatBackend("minisat", "minisat22", slices=0), thorough)
    first, second = auto.solve_cnf_twice(TWO_MODELS, 2, 10)
    assert first.status is SatStatus.SAT and second.status is SatStatus.SAT
    assert first.true_vars != second.true_vars
    assert thorough.calls == [("solve_cnf_twice", 2)]
    assert auto.solve_cnf(pigeonhole(4), 10).status is SatStatus.UNSAT


def test_only_the_uniqueness_proof_goes_to_kissat_when_a_solution_was_found(kissat):
    thorough = Recording(kissat)
    auto = AutoBackend(FindsOnlyTheFirst(), thorough)
    first, second = auto.solve_cnf_twice(TWO_MODELS, 2, 10)
    assert first.status is SatStatus.SAT and second.status is SatStatus.SAT
    assert thorough.calls == [("solve_cnf", 3)]  # the formula and the blocking clause
