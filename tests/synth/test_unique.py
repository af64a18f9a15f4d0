import numpy as np

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.synth.unique import count_solutions, unique_puzzle
from tests.synth.checks import assert_givens_fit


def test_counting_stops_at_the_limit_and_spots_contradictions():
    empty = Puzzle.from_rows([[0] * 4 for _ in range(4)])
    assert count_solutions(empty, limit=2) == 2
    clash = Puzzle.from_rows([[1, 1, 0, 0]] + [[0] * 4 for _ in range(3)])
    assert count_solutions(clash) == 0


def test_dug_puzzles_are_unique():
    rng = np.random.default_rng(8)
    for shape, givens, blocked in [(GridShape(3, 3), 25, 0), (GridShape(2, 3), 10, 2)]:
        generated = unique_puzzle(shape, rng, givens=givens, blocked=blocked)
        assert count_solutions(generated.puzzle) == 1
        assert_givens_fit(generated.puzzle.givens, generated.solution)
        cells = [v for row in generated.puzzle.givens for v in row]
        assert cells.count(None) == blocked
        assert len(cells) - cells.count(0) - blocked >= givens
