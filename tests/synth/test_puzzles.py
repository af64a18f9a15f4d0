import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth.puzzles import random_puzzle, random_solution
from tests.synth.checks import assert_givens_fit, assert_valid_solution

SHAPES = [
    GridShape(2, 2),
    GridShape(2, 3),
    GridShape(3, 2),
    GridShape(2, 4),
    GridShape(3, 3),
    GridShape(3, 4),
    GridShape(4, 4),
    GridShape(4, 5),
]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_random_solutions_are_valid_and_complete(shape):
    rng = np.random.default_rng(3)
    for _ in range(5):
        solution = random_solution(shape, rng)
        assert solution.shape == (shape.size, shape.size)
        assert sorted(solution[0]) == list(range(1, shape.size + 1))
        assert_valid_solution(shape, solution.tolist())


def test_solutions_vary_and_repeat_by_seed():
    shape = GridShape(3, 3)
    first = random_solution(shape, np.random.default_rng(1))
    again = random_solution(shape, np.random.default_rng(1))
    other = random_solution(shape, np.random.default_rng(2))
    assert (first == again).all()
    assert (first != other).any()


def test_puzzle_has_the_asked_holes_and_blocked_cells():
    shape = GridShape(2, 3)
    generated = random_puzzle(shape, np.random.default_rng(5), holes=20, blocked=4)
    cells = [v for row in generated.puzzle.givens for v in row]
    assert cells.count(0) == 20
    assert cells.count(None) == 4
    assert_givens_fit(generated.puzzle.givens, generated.solution)
    assert_valid_solution(shape, generated.solution)


def test_too_many_holes_is_refused():
    with pytest.raises(ValueError):
        random_puzzle(GridShape(2, 2), np.random.default_rng(0), holes=15, blocked=2)
