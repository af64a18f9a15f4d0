"""Random valid Sudoku solutions and puzzles cut from them, for any box shape."""

from __future__ import annotations

import random

import numpy as np

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.synth.puzzles import random_solution as synth_random_solution

SHAPES = [
    GridShape(2, 2),
    GridShape(2, 3),
    GridShape(3, 2),
    GridShape(2, 4),
    GridShape(3, 3),
    GridShape(3, 4),
    GridShape(4, 4),
]


def random_solution(shape: GridShape, rng: random.Random) -> list[list[int]]:
    """A valid solution from synth's generator, seeded from ``rng`` (hypothesis hands tests a
    ``random.Random``)."""
    return synth_random_solution(shape, np.random.default_rng(rng.getrandbits(64))).tolist()


def cut(
    solution: list[list[int]],
    shape: GridShape,
    rng: random.Random,
    holes: float,
    blocked: float = 0.0,
) -> Puzzle:
    """The solution with a fraction of cells emptied and a (smaller) fraction blocked."""
    rows: list[list[int | None]] = []
    for row in solution:
        out: list[int | None] = []
        for value in row:
            roll = rng.random()
            out.append(None if roll < blocked else 0 if roll < blocked + holes else value)
        rows.append(out)
    return Puzzle.from_rows(rows, shape)
