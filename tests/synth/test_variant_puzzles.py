"""synth.variant_puzzles: random partitions and unique jigsaw and diagonal puzzles, checked
against the project's solver (which shares no code with the generator's SAT encoding)."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.check import solution_problems
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from sudoku_batch.synth.variant_puzzles import random_regions, random_variant_puzzle


@pytest.mark.parametrize("size", [4, 5, 6, 9])
def test_random_regions_are_a_jigsaw_partition(size):
    rng = np.random.default_rng(size)
    shapes = [GridShape.jigsaw(random_regions(size, rng)) for _ in range(3)]
    assert all(shape.variant == "jigsaw" for shape in shapes)  # GridShape checks the partition
    assert len(set(shapes)) == 3


@pytest.mark.parametrize(
    ("size", "jigsaw", "diagonals"),
    [(5, True, False), (6, True, False), (9, True, False), (9, False, True)],
)
def test_generated_puzzles_have_exactly_their_solution(size, jigsaw, diagonals):
    generated = random_variant_puzzle(
        size, np.random.default_rng(7), jigsaw=jigsaw, diagonals=diagonals
    )
    puzzle = generated.puzzle
    assert puzzle.shape.diagonals is diagonals and (puzzle.shape.regions is not None) is jigsaw
    result = solve_puzzle(puzzle, make_backend("cadical"), 30.0)
    assert result.verdict is Verdict.SOLVED and result.solution == generated.solution
    assert solution_problems(puzzle, generated.solution) == []
