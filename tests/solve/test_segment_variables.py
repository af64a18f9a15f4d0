"""bench/uniqueness_proof.py's stronger CNF must have exactly the plain CNF's solutions, or its
proof times would compare different questions."""

from __future__ import annotations

import random

import pytest
from pysat.solvers import Solver

from bench.uniqueness_proof import with_segment_variables
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.solve.backend import Cnf, blocking_clause
from sudoku_batch.pipeline.solve.encode import encode_puzzle
from tests.solve.grids import cut, random_solution

ENOUGH = 6  # solutions enumerated per formula; more means "many", which both must agree on


def _solutions(cnf: Cnf, cell_vars: int) -> set[frozenset[int]]:
    """Up to ``ENOUGH`` distinct models, as their true cell variables."""
    found: set[frozenset[int]] = set()
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
        while len(found) < ENOUGH and solver.solve():
            cells = frozenset(v for v in solver.get_model() if 0 < v <= cell_vars)
            found.add(cells)
            solver.add_clause(blocking_clause(cells, cell_vars))
    return found


@pytest.mark.parametrize("shape", [GridShape(2, 3), GridShape(2, 4), GridShape(3, 3)])
@pytest.mark.parametrize("seed", range(4))
def test_segment_variables_keep_exactly_the_same_solutions(shape, seed):
    rng = random.Random(seed)
    puzzle = cut(random_solution(shape, rng), shape, rng, holes=0.7)
    encoding = encode_puzzle(puzzle)
    if not encoding.cells:
        pytest.skip("propagation alone filled this one: no formula to compare")
    plain = _solutions(encoding.cnf, len(encoding.cells))
    stronger = _solutions(with_segment_variables(puzzle, encoding), len(encoding.cells))
    assert plain  # cut from a solution, so at least that one
    if len(plain) < ENOUGH:
        assert stronger == plain
    else:  # both enumerations stopped early: "many" on both sides
        assert len(stronger) == ENOUGH
