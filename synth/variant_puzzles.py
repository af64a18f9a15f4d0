"""Jigsaw and diagonal Sudoku puzzles with exactly one solution, and their truth.

A jigsaw's regions are a random partition of the board into N connected regions of N cells,
made by swapping cells between neighbouring regions of the classic boxes while both stay
connected. The solution comes from a SAT solver (rows, columns, regions and, for a diagonal
Sudoku, the two diagonals each hold every digit once), and givens are removed in random order
while the solution stays the only one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pysat.solvers import Minisat22

from pipeline.grid import GridShape, Puzzle
from pipeline.vision.regions import Regions, box_regions, variant_name, variant_units
from synth.puzzles import GeneratedPuzzle, to_grid


@dataclass(frozen=True)
class VariantPuzzle:
    """A puzzle with its solution, its regions (N x N region numbers, in reading order of each
    region's first cell) and whether its two diagonals are units too."""

    generated: GeneratedPuzzle
    regions: Regions
    diagonal: bool

    @property
    def variant(self) -> str:
        jigsaw = self.regions != box_regions(self.generated.puzzle.shape)
        return variant_name(jigsaw, self.diagonal)


def normalised(regions: Sequence[Sequence[int]]) -> Regions:
    """Regions renumbered in reading order of each region's first cell."""
    numbers: dict[int, int] = {}
    rows = []
    for row in regions:
        rows.append(tuple(numbers.setdefault(int(v), len(numbers)) for v in row))
    return tuple(rows)


def random_regions(shape: GridShape, rng: np.random.Generator, swaps: int | None = None) -> Regions:
    """A random partition of an N x N board into N connected regions of N cells."""
    n = shape.size
    grid = np.array(box_regions(shape))
    target = swaps if swaps is not None else 4 * n * n
    done = attempts = 0
    while done < target and attempts < 50 * target:
        attempts += 1
        r, c = int(rng.integers(n)), int(rng.integers(n))
        a = grid[r, c]
        others = [grid[y, x] for y, x in _neighbours(r, c, n) if grid[y, x] != a]
        if not others:
            continue
        b = others[int(rng.integers(len(others)))]
        # A cell of b beside a, to move the other way.
        back = [
            (y, x)
            for y, x in zip(*np.nonzero(grid == b), strict=True)
            if any(grid[v, u] == a for v, u in _neighbours(y, x, n)) and (y, x) != (r, c)
        ]
        if not back:
            continue
        y, x = back[int(rng.integers(len(back)))]
        grid[r, c], grid[y, x] = b, a
        if _connected(grid == a) and _connected(grid == b):
            done += 1
        else:
            grid[r, c], grid[y, x] = a, b
    return normalised(grid.tolist())


def _neighbours(r: int, c: int, n: int) -> list[tuple[int, int]]:
    return [
        (y, x)
        for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        if 0 <= y < n and 0 <= x < n
    ]


def _connected(mask: np.ndarray) -> bool:
    cells = list(zip(*np.nonzero(mask), strict=True))
    if not cells:
        return False
    seen = {cells[0]}
    todo = [cells[0]]
    while todo:
        r, c = todo.pop()
        for y, x in _neighbours(r, c, mask.shape[0]):
            if mask[y, x] and (y, x) not in seen:
                seen.add((y, x))
                todo.append((y, x))
    return len(seen) == len(cells)


class _Cnf:
    """The SAT encoding of a board's units, in an incremental solver."""

    def __init__(self, regions: Regions, diagonal: bool) -> None:
        self.n = n = len(regions)
        self.solver = Minisat22()
        self.next_var = n**3 + 1
        for r in range(n):
            for c in range(n):
                self._exactly_one([self.var(r, c, d) for d in range(1, n + 1)])
        for unit in variant_units(regions, variant_name(False, diagonal)):
            for d in range(1, n + 1):
                self._exactly_one([self.var(r, c, d) for r, c in unit])

    def var(self, r: int, c: int, d: int) -> int:
        return (r * self.n + c) * self.n + d

    def _exactly_one(self, literals: list[int]) -> None:
        self.solver.add_clause(literals)
        for i, a in enumerate(literals):
            for b in literals[i + 1 :]:
                self.solver.add_clause([-a, -b])

    def solution(self, assumptions: list[int]) -> np.ndarray | None:
        if not self.solver.solve(assumptions=assumptions):
            return None
        model = set(self.solver.get_model())
        n = self.n
        grid = np.zeros((n, n), int)
        for r in range(n):
            for c in range(n):
                grid[r, c] = next(d for d in range(1, n + 1) if self.var(r, c, d) in model)
        return grid

    def other_solution_exists(self, givens: np.ndarray, solution: np.ndarray) -> bool:
        """Whether ``givens`` (0 empty) allow a solution other than ``solution``."""
        n = self.n
        switch = self.next_var
        self.next_var += 1
        empty = [(r, c) for r in range(n) for c in range(n) if givens[r, c] == 0]
        if not empty:
            return False
        self.solver.add_clause([-switch] + [-self.var(r, c, int(solution[r, c])) for r, c in empty])
        fixed = [
            self.var(r, c, int(givens[r, c])) for r in range(n) for c in range(n) if givens[r, c]
        ]
        found = self.solver.solve(assumptions=[switch, *fixed])
        self.solver.add_clause([-switch])  # retire this check's clause
        return bool(found)


def variant_puzzle(
    shape: GridShape,
    rng: np.random.Generator,
    *,
    jigsaw: bool,
    diagonal: bool,
    givens: int | None = None,
) -> VariantPuzzle:
    """A random jigsaw and/or diagonal Sudoku with exactly one solution, dug down towards
    ``givens`` givens (it may stop with more); regions without a solution are drawn again
    (boxes without one raise ``ValueError``)."""
    n = shape.size
    while True:
        regions = random_regions(shape, rng) if jigsaw else box_regions(shape)
        cnf = _Cnf(regions, diagonal)
        # Digits are interchangeable, so any order of them along the first row is possible
        # when any solution is.
        first_row = rng.permutation(n) + 1
        solution = cnf.solution([cnf.var(0, c, int(d)) for c, d in enumerate(first_row)])
        if solution is not None:
            break
        if not jigsaw:
            cnf.solver.delete()
            raise ValueError(f"no {n}x{n} Sudoku has diagonals and these boxes")
    cells = solution.copy()
    target = givens if givens is not None else int(0.35 * n * n)
    remaining = n * n
    for index in rng.permutation(n * n):
        if remaining <= target:
            break
        r, c = divmod(int(index), n)
        value, cells[r, c] = cells[r, c], 0
        if cnf.other_solution_exists(cells, solution):
            cells[r, c] = value
        else:
            remaining -= 1
    cnf.solver.delete()
    generated = GeneratedPuzzle(Puzzle(shape, to_grid(cells)), to_grid(solution))
    return VariantPuzzle(generated, regions, diagonal)
