"""Random valid Sudoku solutions of any box shape, and puzzles cut from them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sudoku_batch.pipeline.grid import Grid, GridShape, Puzzle


@dataclass(frozen=True)
class GeneratedPuzzle:
    """A puzzle and the complete solution it was cut from (None at blocked cells in both)."""

    puzzle: Puzzle
    solution: Grid


def random_solution(shape: GridShape, rng: np.random.Generator) -> np.ndarray:
    """A uniformly shuffled valid N x N solution (values 1..N) for ``shape``'s boxes."""
    p, q, n = shape.box_rows, shape.box_cols, shape.size
    r = np.arange(n)[:, None]
    c = np.arange(n)[None, :]
    # The classic pattern: shifting each row by q within a band and by 1 between bands keeps
    # every row, column and p x q box a permutation of 0..N-1.
    grid = (q * (r % p) + r // p + c) % n
    # Rows within a band and whole bands (q bands of p rows) can be permuted freely; likewise
    # columns within a stack and stacks (p stacks of q columns).
    rows = np.concatenate([band * p + rng.permutation(p) for band in rng.permutation(q)])
    cols = np.concatenate([stack * q + rng.permutation(q) for stack in rng.permutation(p)])
    grid = grid[rows][:, cols]
    # Transposing maps p x q boxes to q x p boxes, so it is a symmetry only for square boxes.
    if p == q and rng.random() < 0.5:
        grid = grid.T
    return rng.permutation(n)[grid] + 1


def cut_puzzle(
    solution: np.ndarray,
    shape: GridShape,
    rng: np.random.Generator,
    *,
    holes: int,
    blocked: int = 0,
) -> GeneratedPuzzle:
    """Blank ``holes`` random cells and block ``blocked`` others; uniqueness is not checked."""
    n = shape.size
    if holes + blocked > n * n:
        raise ValueError(f"{holes} holes and {blocked} blocked cells do not fit in {n}x{n}")
    order = rng.permutation(n * n)
    givens = solution.astype(object).ravel()
    answer = givens.copy()
    givens[order[:holes]] = 0
    givens[order[holes : holes + blocked]] = None
    answer[order[holes : holes + blocked]] = None
    return GeneratedPuzzle(
        puzzle=Puzzle(shape, to_grid(givens.reshape(n, n))),
        solution=to_grid(answer.reshape(n, n)),
    )


def random_puzzle(
    shape: GridShape, rng: np.random.Generator, *, holes: int, blocked: int = 0
) -> GeneratedPuzzle:
    """A random solution with ``holes`` empty and ``blocked`` blocked cells."""
    return cut_puzzle(random_solution(shape, rng), shape, rng, holes=holes, blocked=blocked)


def to_grid(cells: np.ndarray) -> Grid:
    """Plain-int (or None) rows, as ``Puzzle`` holds them."""
    return tuple(tuple(None if v is None else int(v) for v in row) for row in cells)
