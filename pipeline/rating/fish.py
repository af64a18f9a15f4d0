"""Basic fish: X-wing, swordfish, jellyfish (SE 3.2, 3.8, 5.2).

For one digit, k rows whose places all fall in the same k columns: each of those columns holds
the digit in one of these rows, so nowhere else. Columns as base, rows as cover, likewise.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from pipeline.rating.candidates import Board
from pipeline.rating.intersections import Finding, eliminations_step
from pipeline.rating.step import Step

FISH = {2: ("X-wing", 3.2), 3: ("Swordfish", 3.8), 4: ("Jellyfish", 5.2)}


def fish_findings(board: Board, k: int) -> Iterator[Finding]:
    geo, cands = board.geo, board.cands
    n = geo.size
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        for base_start, cover_start in ((0, n), (n, 0)):
            lines = []  # (base unit, bitmask of cover indices holding the digit)
            for u in range(base_start, base_start + n):
                where = 0
                for i, c in enumerate(geo.units[u]):
                    if cands[c] & bit:
                        where |= 1 << i
                if 2 <= where.bit_count() <= k:
                    lines.append((u, where))
            for group in combinations(lines, k):
                cover = 0
                for _, where in group:
                    cover |= where
                if cover.bit_count() != k:
                    continue
                base = {u for u, _ in group}
                gone = []
                for i in range(n):
                    if cover >> i & 1:
                        for c in geo.units[cover_start + i]:
                            if cands[c] & bit and geo.cell_units[c][base_start // n] not in base:
                                gone.append((c, digit))
                if gone:
                    yield gone


def fish(k: int):
    name, difficulty = FISH[k]

    def find(board: Board) -> Step | None:
        return eliminations_step(name, difficulty, fish_findings(board, k))

    find.__name__ = name.lower().replace("-", "_")
    return find
