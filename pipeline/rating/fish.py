"""Basic fish: X-wing, swordfish, jellyfish (SE 3.2, 3.8, 5.2).

For one digit, k rows whose places all fall in the same k columns: each of those columns holds
the digit in one of these rows, so nowhere else. Columns as base, rows as cover, likewise.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

from sudoku_batch.pipeline.rating.budget import Budget
from sudoku_batch.pipeline.rating.candidates import Board, Geometry, board_places, costly_part_memo
from sudoku_batch.pipeline.rating.intersections import Finding, eliminations_step
from sudoku_batch.pipeline.rating.step import Step

FISH = {2: ("X-wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def fish_findings(board: Board, k: int) -> Iterator[Finding]:
    geo = board.geo
    for digit, places in enumerate(board_places(board), start=1):
        yield from costly_part_memo(_digit_fish, board.budget, geo, k, digit, places)


def _digit_fish(geo: Geometry, k: int, digit: int, places: int, budget: Budget) -> list[Finding]:
    """The fish of size ``k`` of one digit, from its places alone."""
    n = geo.size
    unit_masks = geo.unit_masks
    found = []
    for base_start, cover_start in ((0, n), (n, 0)):
        lines = []  # (base unit, bitmask of cover indices holding the digit)
        for u in range(base_start, base_start + n):
            here = places & unit_masks[u]
            count = here.bit_count()
            if not 2 <= count <= k:
                continue
            where = 0  # a row's place c is at column c % n, a column's at row c // n
            rest = here
            while rest:
                low = rest & -rest
                rest ^= low
                c = low.bit_length() - 1
                where |= 1 << (c // n if base_start else c % n)
            lines.append((u, where, here))
        budget.spend(n + comb(len(lines), k))
        for group in combinations(lines, k):
            cover = 0
            base_cells = 0
            for _, where, here in group:
                cover |= where
                base_cells |= here
            if cover.bit_count() != k:
                continue
            gone = []
            for i in range(n):
                if cover >> i & 1:
                    hits = places & unit_masks[cover_start + i] & ~base_cells
                    gone += [(c, digit) for c in geo.units[cover_start + i] if hits >> c & 1]
            if gone:
                found.append(gone)
    return found


def fish(k: int):
    name, difficulty = FISH[k]

    def find(board: Board) -> Step | None:
        return eliminations_step(name, difficulty, fish_findings(board, k))

    find.__name__ = name.lower().replace("-", "_")
    return find
