from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.solve.check import solution_problems
from sudoku_batch.pipeline.solve.encode import EncodingPolicy, encode_puzzle
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from tests.solve.grids import SHAPES, cut, random_solution

TIMEOUT = 60.0


def grid(rows):
    return tuple(tuple(row) for row in rows)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    shape=st.sampled_from(SHAPES),
    seed=st.integers(0, 2**32 - 1),
    holes=st.floats(0.0, 0.8),
    blocked=st.sampled_from([0.0, 0.0, 0.1]),
)
def test_backends_agree_and_every_answer_checks(shape, seed, holes, blocked, kissat, cadical):
    rng = random.Random(seed)
    solution = random_solution(shape, rng)
    puzzle = cut(solution, shape, rng, holes, blocked)
    results = [solve_puzzle(puzzle, backend, TIMEOUT) for backend in (kissat, cadical)]
    assert results[0].verdict == results[1].verdict
    result = results[0]
    assert result.verdict in (Verdict.SOLVED, Verdict.MULTIPLE_SOLUTIONS)
    assert solution_problems(puzzle, result.solution) == []
    if result.verdict is Verdict.SOLVED:
        expected = grid(
            [
                [None if g is None else v for g, v in zip(grow, srow, strict=True)]
                for grow, srow in zip(puzzle.givens, solution, strict=True)
            ]
        )
        assert result.solution == expected == results[1].solution
    else:
        assert solution_problems(puzzle, result.second_solution) == []
        assert result.second_solution != result.solution


def test_an_empty_grid_has_several_solutions(backend):
    result = solve_puzzle(Puzzle(GridShape(2, 3), grid([[0] * 6] * 6)), backend, TIMEOUT)
    assert result.verdict is Verdict.MULTIPLE_SOLUTIONS
    assert result.backend == backend.name


def test_a_full_valid_grid_is_solved_without_the_solver(backend):
    solution = grid(random_solution(GridShape(3, 3), random.Random(7)))
    result = solve_puzzle(Puzzle(GridShape(3, 3), solution), backend, TIMEOUT)
    assert result.verdict is Verdict.SOLVED and result.solution == solution


def test_clashing_givens_are_invalid(backend):
    rows = [[0] * 9 for _ in range(9)]
    rows[2][2] = rows[0][0] = 5
    result = solve_puzzle(Puzzle.from_rows(rows), backend, TIMEOUT)
    assert result.verdict is Verdict.INVALID
    assert "r1c1 and r3c3 both hold 5 in box 1" in result.message


# A unique puzzle with one given changed: no two givens clash and every cell keeps a candidate
# once the givens are struck from their peers, yet there is no solution. Without propagation
# the SAT solver has to find that out; with it, singles already empty a cell.
NO_SOLUTION = "1.9.....85........2...58.9......9..4.9....18.6...832.9458.3.6....7..2...9.6.4.7.1"


def test_givens_that_admit_no_solution_are_unsolvable(backend):
    rows = [
        [0 if ch == "." else int(ch) for ch in NO_SOLUTION[r * 9 : r * 9 + 9]] for r in range(9)
    ]
    puzzle = Puzzle.from_rows(rows)
    without = EncodingPolicy(propagate=False)
    assert not encode_puzzle(puzzle, without).contradiction
    assert solve_puzzle(puzzle, backend, TIMEOUT, without).verdict is Verdict.UNSOLVABLE
    assert encode_puzzle(puzzle).contradiction
    result = solve_puzzle(puzzle, backend, TIMEOUT)
    assert result.verdict is Verdict.UNSOLVABLE and "no digit left" in result.message


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_a_unique_puzzle_with_blocked_cells_is_solved(shape, backend):
    rng = random.Random(shape.size)
    solution = random_solution(shape, rng)
    blocked = {(r, r) for r in range(shape.size)}  # the main diagonal takes no digit
    rows = [
        [None if (r, c) in blocked else v for c, v in enumerate(row)]
        for r, row in enumerate(solution)
    ]
    result = solve_puzzle(Puzzle.from_rows(rows, shape), backend, TIMEOUT)
    assert result.verdict is Verdict.SOLVED
    assert result.solution == grid(rows)
