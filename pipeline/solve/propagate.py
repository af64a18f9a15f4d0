"""Naked and hidden singles to a fixpoint, before any CNF is written.

This is exactly what a SAT solver's unit propagation does at decision level 0 on our encoding
(a naked single is the cell's "exactly one" clause going unit, a hidden single a unit's "every
digit at least once" clause), done here on bitsets, so the formula the solver gets is only what
propagation cannot settle.

The deductions are sound, so every solution agrees with them: a grid filled by propagation
alone is the only solution (reported as solved without a SAT call, after the same independent
check as any solution), and an empty cell or a digit with no place in a full unit means there
is none.

Candidates are kept per digit as a bitboard over the cells (bit r*N+c), Python ints: one ``&``
updates a whole row, column or box. Many easy puzzles are filled by propagation alone and the
others' formulas shrink; the hardest 9x9s are built to defeat these rules, and on them it
neither helps nor hurts. Stronger rules (locked candidates, subsets, probing) cost more than
they save here, so the solver is left to do the rest.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sudoku_batch.pipeline.grid import Puzzle


@dataclass(frozen=True)
class Units:
    """The units of a puzzle's geometry (``pipeline.geometry``) as cell bitboards, and each
    cell's peers."""

    names: tuple[str, ...]
    masks: tuple[int, ...]  # the playable cells of each unit
    full: tuple[bool, ...]  # no blocked cell: the unit holds every digit once
    peers: tuple[int, ...]  # per cell, the other cells of its units
    of_cell: tuple[tuple[int, ...], ...]  # per cell, the indices of its units


def units_of(puzzle: Puzzle) -> Units:
    n, geometry = puzzle.size, puzzle.shape.geometry
    masks = [sum(1 << cell for cell in unit.cells) for unit in geometry.units]
    blocked = sum(
        1 << (r * n + c) for r in range(n) for c in range(n) if puzzle.givens[r][c] is None
    )
    peers = tuple(
        sum_masks(masks[u] for u in geometry.cell_units[i]) & ~(1 << i) for i in range(n * n)
    )
    return Units(
        tuple(unit.name for unit in geometry.units),
        tuple(m & ~blocked for m in masks),
        tuple(not m & blocked for m in masks),
        peers,
        geometry.cell_units,
    )


def sum_masks(masks: Iterable[int]) -> int:
    """The union of bitboards."""
    union = 0
    for mask in masks:
        union |= mask
    return union


@dataclass(frozen=True)
class Candidates:
    """What propagation left: for each digit d, ``boards[d - 1]`` has bit r*N+c set when cell
    (r, c) may still hold d; ``solved`` has the bits of the cells with one digit left (givens
    included). ``contradiction`` says why there is no solution, when propagation found that."""

    size: int
    boards: tuple[int, ...]
    solved: int
    playable: int
    contradiction: str = ""

    def digit_at(self, cell: int) -> int:
        """The digit of a solved cell."""
        bit = 1 << cell
        return next(d for d, board in enumerate(self.boards, 1) if board & bit)


def propagate(puzzle: Puzzle, units: Units, fixpoint: bool = True) -> Candidates:
    """Naked and hidden singles to a fixpoint (see the module notes); with ``fixpoint`` False
    only the givens' digits are struck from their peers. The givens must not clash
    (``encode.find_clashes``); a clash would only show up as a contradiction here."""
    n = puzzle.size
    boards = [0] * n
    playable = 0
    for r, row in enumerate(puzzle.givens):
        for c, value in enumerate(row):
            if value is None:
                continue
            bit = 1 << (r * n + c)
            playable |= bit
            if value:
                boards[value - 1] |= bit
    empty = playable & ~sum(boards)  # givens are distinct cells, so the sum is their union
    boards = [board | empty for board in boards]

    solved = 0
    unit_list = list(zip(units.names, units.masks, units.full, strict=True))
    while True:
        # Naked singles: the cells in exactly one digit's board.
        once = twice = 0
        for board in boards:
            twice |= once & board
            once |= board
        if playable & ~once:
            return _contradiction(n, boards, solved, playable, _no_digit(playable & ~once, n))
        new = once & ~twice & ~solved
        if new and (fixpoint or not solved):  # without the fixpoint only the givens are placed
            for d, board in enumerate(boards):
                placed = board & new
                while placed:
                    low = placed & -placed
                    board &= ~units.peers[low.bit_length() - 1]
                    placed ^= low
                boards[d] = board
            solved |= new
            continue  # eliminations first: they are cheaper than the hidden-single scan
        if not fixpoint:
            return Candidates(n, tuple(boards), solved, playable)
        # Hidden singles: a digit with one place left in a unit that must hold it.
        found = 0
        for d, board in enumerate(boards):
            for name, mask, full in unit_list:
                places = board & mask
                if places & solved:
                    continue  # already placed in this unit
                if not places:
                    if full:
                        why = f"digit {d + 1} has no place left in {name}"
                        return _contradiction(n, boards, solved, playable, why)
                elif full and places & (places - 1) == 0:
                    found |= places
                    for e in range(n):
                        if e != d:
                            boards[e] &= ~places
        if not found:
            return Candidates(n, tuple(boards), solved, playable)


def _no_digit(cells: int, n: int) -> str:
    first = (cells & -cells).bit_length() - 1
    return f"cell r{first // n + 1}c{first % n + 1} has no digit left to take"


def _contradiction(n: int, boards: list[int], solved: int, playable: int, why: str) -> Candidates:
    return Candidates(n, tuple(boards), solved, playable, contradiction=why)
