"""Naked and hidden subsets (pairs, triples, quads) within one unit.

Naked: k cells of a unit whose candidates together are only k digits; those digits leave the
unit's other cells. Hidden: k digits whose places in a unit are only k cells; those cells lose
their other digits. SE rates naked pair/triple/quad 3.0/3.6/5.0 and hidden 3.4/4.0/5.4; a hidden
pair or triple whose eliminations leave a hidden single is the "direct" variant (2.0, 2.5).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from math import comb

from sudoku_batch.pipeline.rating.budget import Budget
from sudoku_batch.pipeline.rating.candidates import Board, Geometry, costly_part_memo, memo
from sudoku_batch.pipeline.rating.intersections import Finding, eliminations_step
from sudoku_batch.pipeline.rating.step import Step

NAKED = {2: ("Naked pair", 3.0), 3: ("Naked triple", 3.6), 4: ("Naked quad", 5.0)}
HIDDEN = {2: ("Hidden pair", 3.4), 3: ("Hidden triple", 4.0), 4: ("Hidden quad", 5.4)}
DIRECT_HIDDEN = {2: ("Direct hidden pair", 2.0), 3: ("Direct hidden triple", 2.5)}


def naked_findings(board: Board, k: int) -> Iterator[Finding]:
    cands = board.cands
    for unit in board.geo.units:
        small = [c for c in unit if cands[c] and (cands[c]).bit_count() <= k]
        if len(small) < k:
            continue
        board.budget.spend(comb(len(small), k))
        for group in combinations(small, k):
            union = 0
            for c in group:
                union |= cands[c]
            if union.bit_count() != k:
                continue
            gone = [
                (c, d)
                for c in unit
                if c not in group and cands[c] & union
                for d in range(1, board.geo.size + 1)
                if cands[c] & union & (1 << (d - 1))
            ]
            if gone:
                yield gone


def hidden_findings(board: Board, k: int) -> Iterator[Finding]:
    return (gone for _, gone in hidden_findings_by_unit(board, k))


def hidden_findings_by_unit(board: Board, k: int) -> list[tuple[tuple[int, ...], Finding]]:
    return memo(("hidden", k), board, lambda: list(_hidden_findings_by_unit(board, k)))


def _hidden_findings_by_unit(board: Board, k: int) -> Iterator[tuple[tuple[int, ...], Finding]]:
    cands, geo = board.cands, board.geo
    for u, unit in enumerate(geo.units):
        unit_cands = tuple(map(cands.__getitem__, unit))
        gone = costly_part_memo(_unit_hidden, board.budget, geo, k, u, unit_cands)
        for finding in gone:
            yield unit, finding


def _unit_hidden(
    geo: Geometry, k: int, u: int, unit_cands: tuple[int, ...], budget: Budget
) -> list[Finding]:
    """The hidden subsets of size ``k`` in unit ``u``, from its cells' candidates alone."""
    # Digits with 1..k places and digits present, counted bitwise: many units stop here.
    present = twice = thrice = four = five = 0  # the digits with at least 1, 2, ... places
    for m in unit_cands:
        five |= four & m
        four |= thrice & m
        thrice |= twice & m
        twice |= present & m
        present |= m
    few = present & ~(twice, thrice, four, five)[k - 1]
    if few.bit_count() < k or present.bit_count() <= k:
        return []
    n = geo.size
    unit = geo.units[u]
    # Each such digit's places as positions in the unit, in the order a scan of the unit's
    # cells meets the digits (cells ascending, then digits ascending).
    groups = []
    rest = few
    while rest:
        bit = rest & -rest
        rest ^= bit
        here = 0
        for i, m in enumerate(unit_cands):
            if m & bit:
                here |= 1 << i
        groups.append(((here & -here).bit_length(), bit, here))
    groups.sort()
    found = []
    budget.spend(comb(len(groups), k))
    for group in combinations(groups, k):
        where = 0
        keep = 0
        for _, bit, here in group:
            where |= here
            keep |= bit
        if where.bit_count() != k:
            continue
        gone = [
            (unit[i], d)
            for i in range(len(unit))
            if where >> i & 1
            for d in range(1, n + 1)
            if unit_cands[i] & ~keep & (1 << (d - 1))
        ]
        if gone:
            found.append(gone)
    return found


def naked_subset(k: int):
    name, difficulty = NAKED[k]

    def find(board: Board) -> Step | None:
        return eliminations_step(name, difficulty, naked_findings(board, k))

    find.__name__ = name.lower().replace(" ", "_")
    return find


def hidden_subset(k: int):
    name, difficulty = HIDDEN[k]

    def find(board: Board) -> Step | None:
        return eliminations_step(name, difficulty, hidden_findings(board, k))

    find.__name__ = name.lower().replace(" ", "_")
    return find


def direct_hidden_subset(k: int):
    """SE's direct hidden pair/triple: the subset's eliminations leave one of the struck digits
    a single place in the subset's own unit."""
    name, difficulty = DIRECT_HIDDEN[k]

    def find(board: Board) -> Step | None:
        cands = board.cands
        for unit, gone in hidden_findings_by_unit(board, k):
            subset = {c for c, _ in gone}
            for digit in sorted({d for _, d in gone}):
                bit = 1 << (digit - 1)
                places = [c for c in unit if cands[c] & bit and c not in subset]
                if len(places) == 1:
                    return Step(name, difficulty, ((places[0], digit),))
        return None

    find.__name__ = name.lower().replace(" ", "_")
    return find
