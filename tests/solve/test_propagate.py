"""Propagation before encoding: sound (never loses the solution, finds only real contradictions)
and invisible in the verdicts."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.solve.encode import EncodingPolicy, find_clashes
from sudoku_batch.pipeline.solve.propagate import propagate, units_of
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from tests.solve.grids import SHAPES, cut, random_solution

TIMEOUT = 60.0
WITHOUT = EncodingPolicy(propagate=False)

puzzles = st.tuples(
    st.sampled_from(SHAPES),
    st.integers(0, 2**32 - 1),
    st.floats(0.2, 0.85),
    st.sampled_from([0.0, 0.0, 0.1, 0.2]),
)


@settings(max_examples=150, deadline=None)
@given(case=puzzles)
def test_propagation_keeps_the_true_digit_of_every_cell(case):
    shape, seed, holes, blocked = case
    rng = random.Random(seed)
    solution = random_solution(shape, rng)
    puzzle = cut(solution, shape, rng, holes, blocked)
    found = propagate(puzzle, units_of(puzzle))
    assert not found.contradiction
    n = shape.size
    for r in range(n):
        for c in range(n):
            bit = 1 << (r * n + c)
            if puzzle.givens[r][c] is None:
                assert not any(board & bit for board in found.boards)
                continue
            assert found.boards[solution[r][c] - 1] & bit
            if found.solved & bit:
                assert found.digit_at(r * n + c) == solution[r][c]


def altered(shape: GridShape, seed: int, holes: float, blocked: float) -> Puzzle:
    """A puzzle cut from a solution with one given changed to another digit that clashes with no
    given: it may have no solution, or other ones."""
    rng = random.Random(seed)
    puzzle = cut(random_solution(shape, rng), shape, rng, holes, blocked)
    rows = [list(row) for row in puzzle.givens]
    givens = [(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v]
    if givens:
        r, c = rng.choice(givens)
        for digit in rng.sample(range(1, shape.size + 1), shape.size):
            rows[r][c] = digit
            if not find_clashes(Puzzle.from_rows(rows, shape)):
                break
        else:
            rows[r][c] = puzzle.givens[r][c]
    return Puzzle.from_rows(rows, shape)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=puzzles)
def test_verdicts_and_solutions_are_the_same_with_and_without_propagation(case, cadical):
    puzzle = altered(*case)
    without = solve_puzzle(puzzle, cadical, TIMEOUT, WITHOUT)
    found = propagate(puzzle, units_of(puzzle))
    result = solve_puzzle(puzzle, cadical, TIMEOUT)
    assert result.verdict == without.verdict
    if result.verdict is Verdict.SOLVED:
        assert result.solution == without.solution
    # A contradiction found by propagation is a real one: the solver finds no solution either.
    if found.contradiction:
        assert without.verdict is Verdict.UNSOLVABLE
        assert result.message == found.contradiction


def test_an_empty_cell_and_a_digit_with_no_place_are_contradictions():
    # r1c4 must be 4 (row 1 holds 1, 2, 3) but column 4 holds a 4.
    no_digit = Puzzle.from_rows([[1, 2, 3, 0], [0, 0, 0, 4], [0] * 4, [0] * 4])
    assert "r1c4 has no digit left" in propagate(no_digit, units_of(no_digit)).contradiction
    # Digit 1 cannot go in row 1: columns 1-3 hold a 1 and r1c4 is a 2.
    no_place = Puzzle.from_rows([[0, 0, 0, 2], [0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]])
    rows = [list(row) for row in no_place.givens]
    rows[1][0], rows[3][2] = 1, 1
    no_place = Puzzle.from_rows(rows)
    assert (
        "digit 1 has no place left in row 1"
        in propagate(no_place, units_of(no_place)).contradiction
    )


def test_a_unit_with_a_blocked_cell_forces_no_hidden_single():
    # Row 1 has three playable cells, so digit 4 need not appear in it.
    rows = [[None, 1, 2, 0], [0] * 4, [0] * 4, [0] * 4]
    puzzle = Puzzle.from_rows(rows)
    found = propagate(puzzle, units_of(puzzle))
    assert not found.contradiction and not found.solved & (1 << 3)  # r1c4 is still 3 or 4
