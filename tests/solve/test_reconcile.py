from __future__ import annotations

import random

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import BoardReading, CellReading
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.reconcile import solve_reading
from sudoku_batch.pipeline.solve.result import Doubt, Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from tests.solve.grids import random_solution

SHAPE = GridShape(3, 3)
TIMEOUT = 30.0


def reading_of(solution, keep, misreads=None):
    """A reading of ``solution`` with the cells in ``keep`` printed, read at 0.99 confidence,
    except ``misreads``: {(row, col): (digit read, confidence, alternatives)}."""
    misreads = misreads or {}
    cells = []
    for r, row in enumerate(solution):
        for c, digit in enumerate(row):
            if (r, c) in misreads:
                read, confidence, alternatives = misreads[(r, c)]
                cells.append(CellReading(r, c, CellKind.GIVEN, read, confidence, alternatives))
            elif (r, c) in keep:
                runner_up = ((digit % 9 + 1, 0.005),)
                cells.append(CellReading(r, c, CellKind.GIVEN, digit, 0.99, runner_up))
            else:
                cells.append(CellReading(r, c, CellKind.EMPTY))
    return BoardReading(SHAPE, tuple(cells))


def generous_puzzle(seed):
    """A solution and 50 printed cells, drawn until the puzzle stays unique with any one of
    them taken away (so "treat the misread cell as empty" can succeed too)."""
    rng = random.Random(seed)
    backend = make_backend("cadical")
    cells = [(r, c) for r in range(9) for c in range(9)]
    while True:
        solution = random_solution(SHAPE, rng)
        keep = set(rng.sample(cells, 50))
        if all(
            solve_puzzle(reading_of(solution, keep - {cell}).puzzle(), backend, TIMEOUT).verdict
            is Verdict.SOLVED
            for cell in keep
        ):
            return solution, keep


def a_wrong_digit_that_clashes(solution, keep):
    """A kept cell and a digit that clashes with another kept cell of its row."""
    for r, c in sorted(keep):
        for c2 in range(9):
            if c2 != c and (r, c2) in keep:
                return (r, c), solution[r][c2]
    raise AssertionError("no row with two printed cells")


def test_a_reading_without_contradiction_is_solved_without_doubts(backend):
    solution, keep = generous_puzzle(1)
    outcome = solve_reading(reading_of(solution, keep), backend, TIMEOUT)
    assert outcome.result.verdict is Verdict.SOLVED and outcome.doubts == ()
    assert outcome.result.solution == tuple(map(tuple, solution))


def test_a_misread_digit_is_replaced_by_its_runner_up(backend):
    solution, keep = generous_puzzle(2)
    (r, c), wrong = a_wrong_digit_that_clashes(solution, keep)
    right = solution[r][c]
    misread = {(r, c): (wrong, 0.6, ((right, 0.3), (5, 0.05)))}
    outcome = solve_reading(reading_of(solution, keep, misread), backend, TIMEOUT)
    assert outcome.result.verdict is Verdict.SOLVED
    assert outcome.doubts == (Doubt(r, c, wrong, 0.6, right),)
    assert outcome.result.solution == tuple(map(tuple, solution))


def test_the_less_confident_of_two_clashing_readings_is_doubted(backend):
    solution, keep = generous_puzzle(3)
    (r, c), wrong = a_wrong_digit_that_clashes(solution, keep)
    c_other = next(c2 for c2 in range(9) if (r, c2) in keep and solution[r][c2] == wrong)
    right = solution[r][c]
    misread = {
        (r, c): (wrong, 0.7, ((right, 0.2),)),
        # The correctly read clashing partner is less sure, but offers no better digit.
        (r, c_other): (wrong, 0.8, ((right, 0.1),)),
    }
    outcome = solve_reading(reading_of(solution, keep, misread), backend, TIMEOUT)
    assert outcome.result.verdict is Verdict.SOLVED
    assert [(d.row, d.col, d.replaced_by) for d in outcome.doubts] == [(r, c, right)]


def test_a_misread_without_a_useful_runner_up_is_treated_as_empty(backend):
    solution, keep = generous_puzzle(4)
    (r, c), wrong = a_wrong_digit_that_clashes(solution, keep)
    misread = {(r, c): (wrong, 0.5, ())}
    outcome = solve_reading(reading_of(solution, keep, misread), backend, TIMEOUT)
    assert outcome.result.verdict is Verdict.SOLVED
    assert outcome.doubts == (Doubt(r, c, wrong, 0.5, 0),)
    assert outcome.puzzle.givens[r][c] == 0


def test_two_misreads_are_both_found(backend):
    solution, keep = generous_puzzle(5)
    (r, c), wrong = a_wrong_digit_that_clashes(solution, keep)
    # A second misread far away, in another row: a digit no printed cell of its units holds
    # wrongly, so the puzzle is (most likely) unsolvable rather than clashing.
    r2 = (r + 4) % 9
    c2 = next(col for col in range(9) if (r2, col) in keep)
    wrong2 = solution[r2][c2] % 9 + 1
    misread = {
        (r, c): (wrong, 0.55, ((solution[r][c], 0.4),)),
        (r2, c2): (wrong2, 0.6, ((solution[r2][c2], 0.35),)),
    }
    outcome = solve_reading(reading_of(solution, keep, misread), backend, TIMEOUT)
    assert outcome.result.verdict is Verdict.SOLVED
    assert outcome.result.solution == tuple(map(tuple, solution))
    assert {(d.row, d.col) for d in outcome.doubts} <= {(r, c), (r2, c2)}


def test_a_confident_misread_is_never_doubted(backend):
    solution, keep = generous_puzzle(6)
    (r, c), wrong = a_wrong_digit_that_clashes(solution, keep)
    # Surer of the wrong digit than of any other cell: it is never doubted, and the bounded
    # search ends either with the original verdict or with a way round that keeps it.
    misread = {(r, c): (wrong, 0.999, ())}
    outcome = solve_reading(reading_of(solution, keep, misread), backend, TIMEOUT)
    if outcome.result.verdict is Verdict.INVALID:
        assert "did not help" in outcome.result.message and outcome.doubts == ()
    else:
        assert (r, c) not in {(d.row, d.col) for d in outcome.doubts}
