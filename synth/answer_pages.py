"""What a book check must catch, made on purpose: printed answers (fully filled grids, one
optionally misprinted) and disguised copies of a puzzle."""

from __future__ import annotations

import numpy as np

from sudoku_batch.pipeline.grid import Puzzle
from sudoku_batch.synth.puzzles import GeneratedPuzzle, to_grid


def answer_grid(
    generated: GeneratedPuzzle, wrong_cell: tuple[int, int] | None = None
) -> GeneratedPuzzle:
    """The puzzle's solution printed as a grid of its own; ``wrong_cell`` holds the next digit
    instead of the right one (a misprint)."""
    cells = np.array(generated.solution, dtype=object)
    if wrong_cell is not None:
        cells[wrong_cell] = cells[wrong_cell] % generated.puzzle.size + 1
    grid = to_grid(cells)
    return GeneratedPuzzle(Puzzle(generated.puzzle.shape, grid), grid)


def disguise(generated: GeneratedPuzzle, rng: np.random.Generator) -> GeneratedPuzzle:
    """The same puzzle disguised: digits relabelled, rows swapped within a band and columns
    within a stack, bands and stacks reordered, and (square boxes) transposed."""
    shape, n = generated.puzzle.shape, generated.puzzle.size
    p, q = shape.box_rows, shape.box_cols
    rows = np.concatenate([band * p + rng.permutation(p) for band in rng.permutation(q)])
    cols = np.concatenate([stack * q + rng.permutation(q) for stack in rng.permutation(p)])
    relabel = np.concatenate([[0], rng.permutation(n) + 1])
    transpose = p == q

    def moved(grid) -> np.ndarray:
        cells = np.array([[v or 0 for v in row] for row in grid])[rows][:, cols]
        return relabel[cells.T if transpose else cells]

    return GeneratedPuzzle(
        Puzzle(shape, to_grid(moved(generated.puzzle.givens))),
        to_grid(moved(generated.solution)),
    )
