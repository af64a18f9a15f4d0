"""Puzzles with exactly one solution, for examples: a small counting solver and a digger.

The project's real solver lives in pipeline.solve; this one only has to be quick on the small
puzzles synth makes, and keeps test-data generation independent of the code under test.
"""

from __future__ import annotations

import numpy as np

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.synth.puzzles import GeneratedPuzzle, cut_puzzle, random_solution, to_grid


def count_solutions(puzzle: Puzzle, limit: int = 2) -> int:
    """How many solutions ``puzzle`` has, counting no further than ``limit``.

    Blocked cells take no digit and constrain nothing.
    """
    shape, n = puzzle.shape, puzzle.size
    rows, cols, boxes = [0] * n, [0] * n, [0] * n
    empty: list[tuple[int, int, int]] = []
    for r, row in enumerate(puzzle.givens):
        for c, value in enumerate(row):
            b = shape.box_of(r, c)
            if value == 0:
                empty.append((r, c, b))
            elif value is not None:
                bit = 1 << (value - 1)
                if (rows[r] | cols[c] | boxes[b]) & bit:
                    return 0
                rows[r] |= bit
                cols[c] |= bit
                boxes[b] |= bit
    full = (1 << n) - 1

    def search(todo: list[tuple[int, int, int]]) -> int:
        if not todo:
            return 1
        # Branch on the cell with the fewest candidates; a cell with none ends this branch.
        best, best_free, best_count = 0, 0, n + 1
        for i, (r, c, b) in enumerate(todo):
            free = full & ~(rows[r] | cols[c] | boxes[b])
            count = free.bit_count()
            if count < best_count:
                best, best_free, best_count = i, free, count
                if count <= 1:
                    break
        r, c, b = todo[best]
        rest = todo[:best] + todo[best + 1 :]
        found = 0
        while best_free and found < limit:
            bit = best_free & -best_free
            best_free ^= bit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            found += search(rest)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
        return found

    return min(search(empty), limit)


def unique_puzzle(
    shape: GridShape, rng: np.random.Generator, *, givens: int, blocked: int = 0
) -> GeneratedPuzzle:
    """Dig a random solution down towards ``givens`` givens, removing a given only while the
    puzzle keeps a single solution (so it may stop with more givens)."""
    full = cut_puzzle(random_solution(shape, rng), shape, rng, holes=0, blocked=blocked)
    cells = [list(row) for row in full.puzzle.givens]
    remaining = shape.size**2 - blocked
    for index in rng.permutation(shape.size**2):
        if remaining <= givens:
            break
        r, c = divmod(int(index), shape.size)
        if cells[r][c] is None:
            continue
        value, cells[r][c] = cells[r][c], 0
        if count_solutions(Puzzle(shape, to_grid(cells))) == 1:
            remaining -= 1
        else:
            cells[r][c] = value
    return GeneratedPuzzle(Puzzle(shape, to_grid(cells)), full.solution)
