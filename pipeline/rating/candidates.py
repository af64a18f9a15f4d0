"""Pencil marks of a grid being solved by hand: for every cell the digits it may still take.

A cell's candidates are one int used as a bitset (bit d-1 for digit d), so a unit's union or a
subset test is one ``|`` or ``&``. The geometry of a shape (its units and each cell's peers) is
built once per shape and shared by every board of that shape; boards are mutable and cheap to
copy, because the chaining techniques try assumptions on copies.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeVar

from sudoku_batch.pipeline.grid import Grid, GridShape, Puzzle
from sudoku_batch.pipeline.rating.budget import Budget

T = TypeVar("T")


class Contradiction(Exception):
    """A placement or elimination left a cell or a unit without any possibility."""


@dataclass(frozen=True)
class Geometry:
    """The units of one shape (``pipeline.geometry``): rows 0..n-1, columns n..2n-1, regions
    (boxes or a jigsaw's) 2n..3n-1, then extra units (diagonals), as cell tuples. ``box`` is
    (box_rows, box_cols) for classic boxes, None for a jigsaw's regions."""

    size: int
    units: tuple[tuple[int, ...], ...]
    cell_units: tuple[tuple[int, ...], ...]  # per cell, its units (row, column, region, ...)
    peers: tuple[tuple[int, ...], ...]  # per cell, the other cells of its units
    peer_sets: tuple[frozenset[int], ...]
    unit_masks: tuple[int, ...]  # per unit, its cells as a bitmask over cell indices
    peer_masks: tuple[int, ...]  # per cell, its peers as a bitmask
    box: tuple[int, int] | None
    # Results of pure functions of part of a state (see ``part_memo``), kept per shape.
    parts: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def cells(self) -> int:
        return self.size * self.size

    def unit_kind(self, unit: int) -> str:
        """row, column, box (a region of any shape) or extra (a diagonal)."""
        return ("row", "column", "box", "extra")[min(unit // self.size, 3)]


@lru_cache(maxsize=16)
def geometry(shape: GridShape) -> Geometry:
    grid = shape.geometry
    n = grid.size
    units = tuple(unit.cells for unit in grid.units)
    peer_sets = tuple(
        frozenset(p for u in grid.cell_units[i] for p in units[u] if p != i) for i in range(n * n)
    )
    return Geometry(
        n,
        units,
        grid.cell_units,
        tuple(tuple(sorted(s)) for s in peer_sets),
        peer_sets,
        tuple(sum(1 << c for c in unit) for unit in units),
        tuple(sum(1 << c for c in s) for s in peer_sets),
        grid.box,
    )


PARTS_KEPT = 200_000  # entries of ``Geometry.parts`` before it is emptied (tens of MB at most)


def part_memo(compute: Callable[..., T], geo: Geometry, *part: Hashable) -> T:
    """``compute(geo, *part)`` once per shape and ``part``, for a ``compute`` whose result
    depends on nothing else (e.g. a technique's scan of one digit, given that digit's places).
    A step changes a few digits and units, so most per-digit or per-unit scans see the same part
    again on the next state and are answered from here instead of rescanned. Callers must not
    mutate what it returns. For a ``compute`` that spends nothing (see ``costly_part_memo``)."""
    parts = geo.parts
    key = (compute, part)
    if key in parts:
        return parts[key]
    if len(parts) >= PARTS_KEPT:
        parts.clear()
    value = parts[key] = compute(geo, *part)
    return value


def costly_part_memo(
    compute: Callable[..., T], budget: Budget, geo: Geometry, *part: Hashable
) -> T:
    """``part_memo`` for a ``compute(geo, *part, budget)`` that spends from ``budget``: what it
    spent is kept with its result and charged again on every answer from the memo, so a rating
    is charged the same whatever was rated before it."""
    parts = geo.parts
    key = (compute, part)
    if key in parts:
        value, cost = parts[key]
        budget.spend(cost)
        return value
    if len(parts) >= PARTS_KEPT:
        parts.clear()
    before = budget.spent
    value = compute(geo, *part, budget)
    parts[key] = (value, budget.spent - before)
    return value


def board_places(board: Board) -> list[int]:
    """``digit_places`` of the board: kept up to date by the board itself (callers must not
    mutate it, nor keep it across a change of the board)."""
    return board.places


def digit_places(cands: list[int], size: int) -> list[int]:
    """Per digit index, the cells that hold it as a bitmask over cell indices."""
    where = [0] * size
    for c, m in enumerate(cands):
        while m:
            low = m & -m
            m ^= low
            where[low.bit_length() - 1] |= 1 << c
    return where


def digits_of(mask: int) -> list[int]:
    """The digits whose bits are set in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


_MEMO: dict[tuple, tuple[Geometry, Any, int]] = {}


def memo(key: tuple, board: Board, compute):
    """``compute()`` once per board state and ``key``: several techniques of a pass share one
    scan (e.g. direct and plain hidden pairs); a few recent states are kept. What ``compute``
    spent of the board's budget is charged again on each answer from here (as in
    ``costly_part_memo``)."""
    full = (key, id(board.geo), tuple(board.cands))
    budget = board.budget
    if full in _MEMO:
        budget.spend(_MEMO[full][2])
    else:
        if len(_MEMO) > 64:
            _MEMO.clear()
        before = budget.spent
        value = compute()
        # The geometry kept alive: its id stays unique.
        _MEMO[full] = (board.geo, value, budget.spent - before)
    return _MEMO[full][1]


class Board:
    """Placed digits (0 = open) and the candidates of the open cells (0 for placed cells), and
    the same candidates per digit (``places``, see ``digit_places``), kept in step by ``place``
    and ``eliminate`` so no technique has to rebuild them. ``budget``: what the techniques
    working on this board (and its copies) may still spend."""

    __slots__ = ("geo", "values", "cands", "places", "budget")

    def __init__(
        self,
        geo: Geometry,
        values: list[int],
        cands: list[int],
        places: list[int] | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.geo = geo
        self.values = values
        self.cands = cands
        self.places = digit_places(cands, geo.size) if places is None else places
        self.budget = Budget() if budget is None else budget

    @classmethod
    def from_puzzle(cls, puzzle: Puzzle, budget: Budget | None = None) -> Board:
        """The givens placed and struck from their peers. Raises ``Contradiction`` when givens
        clash. Blocked cells are not supported here (the rater refuses them before)."""
        geo = geometry(puzzle.shape)
        n = geo.size
        board = cls(geo, [0] * geo.cells, [(1 << n) - 1] * geo.cells, None, budget)
        for r, row in enumerate(puzzle.givens):
            for c, value in enumerate(row):
                if value:
                    board.place(r * n + c, value)
        return board

    def copy(self) -> Board:
        return Board(self.geo, self.values[:], self.cands[:], self.places[:], self.budget)

    def place(self, cell: int, digit: int) -> None:
        bit = 1 << (digit - 1)
        if self.values[cell] == digit:
            return
        if not self.cands[cell] & bit:
            raise Contradiction(f"cell {cell} cannot take {digit}")
        self.values[cell] = digit
        places, cell_bit = self.places, 1 << cell
        others = self.cands[cell]
        while others:
            low = others & -others
            others ^= low
            places[low.bit_length() - 1] &= ~cell_bit
        places[digit - 1] &= ~self.geo.peer_masks[cell]
        self.cands[cell] = 0
        cands = self.cands
        for p in self.geo.peers[cell]:
            if cands[p] & bit:
                cands[p] &= ~bit
                if not cands[p] and not self.values[p]:
                    raise Contradiction(f"cell {p} has no candidate left")

    def eliminate(self, cell: int, digit: int) -> bool:
        """Strike ``digit`` from ``cell``; False when it was not a candidate there."""
        bit = 1 << (digit - 1)
        if not self.cands[cell] & bit:
            return False
        self.cands[cell] &= ~bit
        self.places[digit - 1] &= ~(1 << cell)
        if not self.cands[cell]:
            raise Contradiction(f"cell {cell} has no candidate left")
        return True

    def is_solved(self) -> bool:
        return all(self.values)

    def grid(self) -> Grid:
        n = self.geo.size
        return tuple(tuple(self.values[r * n : (r + 1) * n]) for r in range(n))
