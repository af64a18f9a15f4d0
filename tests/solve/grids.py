"""Random valid Sudoku solutions and puzzles cut from them, for any box shape."""

from __future__ import annotations

import random

from pipeline.grid import GridShape, Puzzle

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
    """A uniformly relabelled, band/stack/row/column-shuffled valid grid."""
    br, bc, n = shape.box_rows, shape.box_cols, shape.size
    base = [[(bc * (r % br) + r // br + c) % n for c in range(n)] for r in range(n)]
    rows = [band * br + i for band in rng.sample(range(bc), bc) for i in rng.sample(range(br), br)]
    cols = [
        stack * bc + j for stack in rng.sample(range(br), br) for j in rng.sample(range(bc), bc)
    ]
    digits = rng.sample(range(1, n + 1), n)
    return [[digits[base[r][c]] for c in cols] for r in rows]


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
