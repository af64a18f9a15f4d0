"""A puzzle as CNF: one variable per (cell, candidate digit), after propagation.

The givens, and whatever ``pipeline.solve.propagate`` deduces from them, are substituted before
the formula is written (rather than added as unit clauses): every satisfied clause and false
literal is dropped up front, so the solver sees a small formula over the undecided cells'
remaining candidates only, numbered compactly from 1. ``Encoding.cells`` maps a variable back to
its (row, col, digit); ``Encoding.placed`` holds the cells propagation filled.

Constraints, for an N x N grid with blocked cells (which take no digit), on the units of its
geometry (``pipeline.geometry``: rows, columns, boxes or a jigsaw's regions, diagonals):
- every playable free cell takes exactly one of its candidates;
- no digit twice among the playable cells of a unit;
- in a unit whose cells are all playable, every digit at least once. Implied by the two rules
  above (N cells, N digits), but stating it lets unit propagation find "hidden singles"; in a
  unit with blocked cells it would be wrong, so it is left out there.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from sudoku_batch.pipeline.errors import InvalidPuzzle
from sudoku_batch.pipeline.grid import Puzzle
from sudoku_batch.pipeline.solve.backend import Cnf
from sudoku_batch.pipeline.solve.propagate import propagate, units_of

CellDigit = tuple[int, int, int]  # (row, col, digit), 0-based row/col, digit 1..N


class AtMostOne(StrEnum):
    """How "at most one of these literals" is written."""

    PAIRWISE = "pairwise"  # k(k-1)/2 binary clauses, no new variables
    SEQUENTIAL = "sequential"  # Sinz's sequential counter: k-1 new variables, 3k-4 clauses
    PRODUCT = "product"  # Chen's 2-product: about 2*sqrt(k) new variables, 2k + O(sqrt k) clauses


# Pairwise "at most one" for short lists, a sequential counter beyond: once givens are
# substituted most lists are short, and on the long lists of sparse 16x16s and 25x25s pairwise
# clauses grow quadratically and slow the solver (compare with bench/solve.py --amo and
# --pairwise-up-to).
PAIRWISE_UP_TO = 12


@dataclass(frozen=True)
class EncodingPolicy:
    """The encoding choices; the defaults are the measured best (see ``PAIRWISE_UP_TO``)."""

    long_lists: AtMostOne = AtMostOne.SEQUENTIAL  # used for lists longer than pairwise_up_to
    pairwise_up_to: int = PAIRWISE_UP_TO
    unit_at_least_once: bool = True  # the redundant "every digit in every full unit" clauses
    propagate: bool = True  # naked and hidden singles before writing (pipeline.solve.propagate)


DEFAULT_POLICY = EncodingPolicy()


@dataclass(frozen=True)
class Encoding:
    """The CNF of one puzzle and how to read its models.

    ``cells[v - 1]`` is the (row, col, digit) of variable v for v <= len(cells); variables above
    that are auxiliary. ``contradiction`` is set, and ``cnf`` is empty, when substituting the
    givens already shows the puzzle has no solution (a cell or a digit with no place left).
    """

    cnf: Cnf
    cells: tuple[CellDigit, ...]
    placed: tuple[CellDigit, ...] = ()  # empty cells propagation filled: not in the formula
    contradiction: str = ""

    def decode(self, true_vars: frozenset[int]) -> dict[tuple[int, int], int]:
        """The digit of each empty cell, propagation's and the model's, as (row, col) -> digit."""
        digits = {(r, c): d for r, c, d in self.placed}
        digits.update((cell[:2], cell[2]) for v, cell in enumerate(self.cells, 1) if v in true_vars)
        return digits


def unit_cells(puzzle: Puzzle) -> list[tuple[str, list[tuple[int, int]]]]:
    """Every unit of the puzzle's geometry with a human name, as lists of (row, col)."""
    n = puzzle.size
    return [
        (unit.name, [divmod(cell, n) for cell in unit.cells])
        for unit in puzzle.shape.geometry.units
    ]


def find_clashes(puzzle: Puzzle) -> list[str]:
    """Each pair of givens that repeat a digit in a unit, described for a person."""
    return [
        f"r{r0 + 1}c{c0 + 1} and r{r + 1}c{c + 1} both hold {digit} in {name}"
        for name, (r0, c0), (r, c), digit in clashing_pairs(puzzle)
    ]


def clashing_pairs(
    puzzle: Puzzle,
) -> list[tuple[str, tuple[int, int], tuple[int, int], int]]:
    """Each pair of givens that repeat a digit in a unit: the unit's name, the two cells and
    the digit."""
    pairs = []
    for name, cells in unit_cells(puzzle):
        first_at: dict[int, tuple[int, int]] = {}
        for r, c in cells:
            digit = puzzle.givens[r][c]
            if not digit:
                continue
            if digit in first_at:
                pairs.append((name, first_at[digit], (r, c), digit))
            else:
                first_at[digit] = (r, c)
    return pairs


def encode_puzzle(puzzle: Puzzle, policy: EncodingPolicy = DEFAULT_POLICY) -> Encoding:
    """The CNF of ``puzzle``; raises ``InvalidPuzzle`` naming the cells when givens clash."""
    clashes = find_clashes(puzzle)
    if clashes:
        more = f" (and {len(clashes) - 3} more clashes)" if len(clashes) > 3 else ""
        raise InvalidPuzzle("the givens clash: " + "; ".join(clashes[:3]) + more)

    n = puzzle.size
    units = units_of(puzzle)
    found = propagate(puzzle, units, fixpoint=policy.propagate)
    if found.contradiction:
        return _contradiction(found.contradiction)
    placed = tuple(
        (cell // n, cell % n, found.digit_at(cell))
        for cell in _cells_of(found.solved)
        if puzzle.givens[cell // n][cell % n] == 0
    )
    if not policy.propagate:  # propagation makes this check itself
        for name, mask, full in zip(units.names, units.masks, units.full, strict=True):
            for d, board in enumerate(found.boards, 1):
                if full and not board & mask:
                    return _contradiction(f"digit {d} has no place left in {name}")
    free = found.playable & ~found.solved
    cells: list[CellDigit] = []
    options: dict[int, list[int]] = {}  # free cell -> its variables
    places: dict[tuple[int, int], list[int]] = {}  # (unit, digit) -> its variables
    for d, board in enumerate(found.boards, 1):
        for cell in _cells_of(board & free):
            cells.append((cell // n, cell % n, d))
            var = len(cells)
            options.setdefault(cell, []).append(var)
            for unit in units.of_cell[cell]:
                places.setdefault((unit, d), []).append(var)

    writer = _ClauseWriter(len(cells), policy)
    for variables in options.values():
        writer.exactly_one(variables)
    for (unit, _), lits in places.items():
        writer.at_most_one(lits)
        if units.full[unit] and policy.unit_at_least_once:
            writer.clauses.append(tuple(lits))
    return Encoding(Cnf(writer.num_vars, tuple(writer.clauses)), tuple(cells), placed)


def _cells_of(board: int) -> list[int]:
    """The cell numbers (r*N+c) of a bitboard's set bits, in order."""
    cells = []
    while board:
        low = board & -board
        cells.append(low.bit_length() - 1)
        board ^= low
    return cells


def _contradiction(reason: str) -> Encoding:
    return Encoding(Cnf(0, ()), (), contradiction=reason)


class _ClauseWriter:
    """Collects clauses and hands out auxiliary variables above the cell variables."""

    def __init__(self, num_cell_vars: int, policy: EncodingPolicy):
        self.num_vars = num_cell_vars
        self.clauses: list[tuple[int, ...]] = []
        self.policy = policy

    def new_var(self) -> int:
        self.num_vars += 1
        return self.num_vars

    def exactly_one(self, lits: Sequence[int]) -> None:
        self.clauses.append(tuple(lits))
        self.at_most_one(lits)

    def at_most_one(self, lits: Sequence[int]) -> None:
        method = self.policy.long_lists
        if len(lits) <= self.policy.pairwise_up_to or method is AtMostOne.PAIRWISE:
            self._pairwise(lits)
        elif method is AtMostOne.SEQUENTIAL:
            self._sequential(lits)
        else:
            self._product(lits)

    def _pairwise(self, lits: Sequence[int]) -> None:
        self.clauses.extend(itertools.combinations([-x for x in lits], 2))

    def _sequential(self, lits: Sequence[int]) -> None:
        # s_i is true when some of lits[0..i] is true: x_i -> s_i, s_{i-1} -> s_i, s_{i-1} -> -x_i
        previous = None
        for i, x in enumerate(lits):
            if previous is not None:
                self.clauses.append((-previous, -x))
            if i == len(lits) - 1:
                break
            s = self.new_var()
            self.clauses.append((-x, s))
            if previous is not None:
                self.clauses.append((-previous, s))
            previous = s

    def _product(self, lits: Sequence[int]) -> None:
        # Lay the k literals on a rows x cols grid; at most one row and one column may be "on".
        if len(lits) <= 4:
            self._pairwise(lits)
            return
        cols = -(-len(lits) // int(len(lits) ** 0.5))
        rows = -(-len(lits) // cols)
        row_vars = [self.new_var() for _ in range(rows)]
        col_vars = [self.new_var() for _ in range(cols)]
        for i, x in enumerate(lits):
            self.clauses.append((-x, row_vars[i // cols]))
            self.clauses.append((-x, col_vars[i % cols]))
        self.at_most_one(row_vars)
        self.at_most_one(col_vars)
