"""Jigsaw and diagonal puzzles with exactly one solution: a random partition into N connected
regions of N cells, a random solution found by SAT, and givens removed while the solution stays
the only one.

The CNF is written here from the region numbers, straight from the rules (pairwise, no
propagation), and solved with python-sat's MiniSat, so the test data does not depend on the
encoder under test (``pipeline.solve``).
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
from pysat.solvers import Solver

from sudoku_batch.pipeline.geometry import box_regions
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.synth.puzzles import GeneratedPuzzle, to_grid

SWAPS_PER_CELL = 20  # boundary swaps tried per cell when shuffling a partition


def random_regions(size: int, rng: np.random.Generator) -> list[list[int]]:
    """A random partition of the N x N cells into N connected regions of N cells: the boxes of
    the conventional shape (the rows for a prime N), reshaped by swapping pairs of cells across
    region boundaries whenever both regions stay connected."""
    shape = GridShape.nominal(size)
    regions = np.array(box_regions(shape.box_rows, shape.box_cols))
    for _ in range(SWAPS_PER_CELL * size * size):
        r, c = rng.integers(size, size=2)
        a = regions[r, c]
        others = [regions[rr, cc] for rr, cc in _sides(r, c, size) if regions[rr, cc] != a]
        if not others:
            continue
        b = others[rng.integers(len(others))]
        # Any cell of b touching a goes to a in exchange.
        border = [
            (rr, cc)
            for rr, cc in zip(*np.nonzero(regions == b), strict=True)
            if any(regions[x, y] == a for x, y in _sides(rr, cc, size))
        ]
        rr, cc = border[rng.integers(len(border))]
        regions[r, c], regions[rr, cc] = b, a
        if not (_connected(regions, a) and _connected(regions, b)):
            regions[r, c], regions[rr, cc] = a, b
    return regions.tolist()


def _sides(r: int, c: int, size: int) -> list[tuple[int, int]]:
    return [
        (rr, cc)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= rr < size and 0 <= cc < size
    ]


def _connected(regions: np.ndarray, label: int) -> bool:
    cells = set(zip(*np.nonzero(regions == label), strict=True))
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for side in _sides(r, c, len(regions)):
            if side in cells and side not in seen:
                seen.add(side)
                todo.append(side)
    return len(seen) == len(cells)


def rule_units(regions: list[list[int]], diagonals: bool) -> list[list[tuple[int, int]]]:
    """Rows, columns, regions and (when asked) both diagonals, as lists of (row, col)."""
    n = len(regions)
    units = [[(r, c) for c in range(n)] for r in range(n)]
    units += [[(r, c) for r in range(n)] for c in range(n)]
    units += [[(r, c) for r in range(n) for c in range(n) if regions[r][c] == k] for k in range(n)]
    if diagonals:
        units += [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
    return units


class _RuleSolver:
    """MiniSat over the rules: variable (r*N + c)*N + d for digit d+1 in cell (r, c)."""

    def __init__(self, regions: list[list[int]], diagonals: bool):
        n = self.n = len(regions)
        self.solver = Solver(name="minisat22")
        self.selectors = n * n * n  # the last variable used
        for cell in range(n * n):
            lits = [self.var(cell, d) for d in range(n)]
            self.solver.add_clause(lits)
            self.solver.append_formula([[-a, -b] for a, b in itertools.combinations(lits, 2)])
        for unit in rule_units(regions, diagonals):
            for d in range(n):
                lits = [self.var(r * n + c, d) for r, c in unit]
                self.solver.add_clause(lits)
                self.solver.append_formula([[-a, -b] for a, b in itertools.combinations(lits, 2)])

    def var(self, cell: int, d: int) -> int:
        return cell * self.n + d + 1

    def solutions(self, givens: np.ndarray, limit: int) -> list[np.ndarray]:
        """Up to ``limit`` solutions agreeing with ``givens`` (0 = empty)."""
        n = self.n
        assumptions = [self.var(i, int(v) - 1) for i, v in enumerate(givens.ravel()) if v]
        found: list[np.ndarray] = []
        blocking: list[int] = []
        while len(found) < limit:
            if blocking:  # a selector variable keeps the blocking clause local to this call
                self.selectors += 1
                selector = self.selectors
                self.solver.add_clause([-selector, *blocking])
                assumptions.append(selector)
            if not self.solver.solve(assumptions=assumptions):
                break
            model = set(v for v in self.solver.get_model() if v > 0)
            grid = np.zeros(n * n, dtype=int)
            for cell in range(n * n):
                grid[cell] = next(d + 1 for d in range(n) if self.var(cell, d) in model)
            found.append(grid.reshape(n, n))
            blocking = [-self.var(cell, int(grid[cell]) - 1) for cell in range(n * n)]
        return found


def random_variant_puzzle(
    size: int,
    rng: np.random.Generator,
    *,
    jigsaw: bool = True,
    diagonals: bool = False,
    keep: int = 0,
) -> GeneratedPuzzle:
    """A random jigsaw and/or diagonal puzzle (classic boxes when neither) with exactly one
    solution, its givens removed in random order while the solution stays unique: down to a
    minimal puzzle, or until only ``keep`` givens are left."""
    while True:
        if jigsaw:
            regions = random_regions(size, rng)
        else:
            shape = GridShape.square(size)
            regions = [list(row) for row in box_regions(shape.box_rows, shape.box_cols)]
        rules = _RuleSolver(regions, diagonals)
        # A random solution: a random digit seeded in a few cells steers the SAT search.
        seed = np.zeros((size, size), dtype=int)
        for cell in rng.permutation(size * size)[:size]:
            seed.flat[cell] = rng.integers(1, size + 1)
            if not rules.solutions(seed, 1):
                seed.flat[cell] = 0
        found = rules.solutions(seed, 1)
        if found:
            break
    solution = found[0]
    givens = solution.copy()
    for cell in rng.permutation(size * size):
        if np.count_nonzero(givens) <= keep:
            break
        kept = givens.flat[cell]
        givens.flat[cell] = 0
        if len(rules.solutions(givens, 2)) > 1:
            givens.flat[cell] = kept
    if jigsaw:
        shape = GridShape.jigsaw(regions, diagonals)
    else:
        shape = dataclasses.replace(GridShape.square(size), diagonals=diagonals)
    return GeneratedPuzzle(Puzzle(shape, to_grid(givens)), to_grid(solution))
