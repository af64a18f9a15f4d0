"""Jigsaw and diagonal puzzles: valid regions, a solution that fills every unit, one solution."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.grid import GridShape
from pipeline.vision.regions import box_regions, variant_units
from synth.variant_puzzles import random_regions, variant_puzzle


def _count_solutions(givens, unit_list, n: int, limit: int = 2) -> int:
    """An independent count by backtracking over the units (fewest candidates first)."""
    cells = [list(row) for row in givens]
    of_cell: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
    for unit in unit_list:
        for cell in unit:
            of_cell.setdefault(cell, []).append(unit)

    def candidates(r: int, c: int) -> set[int]:
        used = {cells[y][x] for unit in of_cell[r, c] for y, x in unit}
        return set(range(1, n + 1)) - used

    def search() -> int:
        empty = [(r, c) for r in range(n) for c in range(n) if not cells[r][c]]
        if not empty:
            return 1
        r, c = min(empty, key=lambda rc: len(candidates(*rc)))
        found = 0
        for digit in candidates(r, c):
            cells[r][c] = digit
            found += search()
            cells[r][c] = 0
            if found >= limit:
                break
        return found

    return search()


@pytest.mark.parametrize("shape", [GridShape(3, 3), GridShape(2, 3)])
def test_random_regions_are_n_connected_regions_of_n_cells_unlike_the_boxes(shape) -> None:
    rng = np.random.default_rng(4)
    n = shape.size
    regions = np.array(random_regions(shape, rng))
    assert regions.tolist() != [list(row) for row in box_regions(shape)]
    assert sorted(np.bincount(regions.ravel()).tolist()) == [n] * n
    for k in range(n):
        cells = {tuple(rc) for rc in np.argwhere(regions == k)}
        seen, todo = set(), [next(iter(cells))]
        while todo:
            r, c = todo.pop()
            if (r, c) in seen or (r, c) not in cells:
                continue
            seen.add((r, c))
            todo += [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
        assert seen == cells
    # Numbered in reading order of each region's first cell.
    firsts = [int(np.flatnonzero(regions.ravel() == k)[0]) for k in range(n)]
    assert firsts == sorted(firsts)


@pytest.mark.parametrize(
    ("shape", "jigsaw", "diagonal", "variant"),
    [
        (GridShape(2, 3), True, False, "jigsaw"),
        (GridShape(3, 3), True, True, "jigsaw+diagonal"),
        (GridShape(2, 3), False, True, "diagonal"),
        (GridShape(3, 3), False, True, "diagonal"),
        (GridShape(3, 3), True, False, "jigsaw"),
    ],
)
def test_variant_puzzles_fill_every_unit_and_have_one_solution(
    shape, jigsaw: bool, diagonal: bool, variant: str
) -> None:
    rng = np.random.default_rng(9)
    puzzle = variant_puzzle(shape, rng, jigsaw=jigsaw, diagonal=diagonal)
    n = shape.size
    solution = puzzle.generated.solution
    unit_list = variant_units(puzzle.regions, variant)
    assert puzzle.variant == variant
    for unit in unit_list:
        assert sorted(solution[r][c] for r, c in unit) == list(range(1, n + 1))
    givens = puzzle.generated.puzzle.givens
    assert all(v in (0, solution[r][c]) for r, row in enumerate(givens) for c, v in enumerate(row))
    if n <= 6:
        assert _count_solutions(givens, unit_list, n) == 1
