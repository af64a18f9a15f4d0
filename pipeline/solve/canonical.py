"""A canonical form per puzzle: the same string for every disguise of the same puzzle.

The disguises are the validity-preserving transformations: relabelling the digits, permuting the
rows within a band and the bands, the columns within a stack and the stacks, and (for square
boxes) transposing; rotations and reflections are compositions of these. The form is the
lexicographically smallest of all transformed grids, each written with its digits renumbered in
order of first appearance (empty cells as 0 sort first), so it is invariant by construction and
two puzzles share it exactly when one is a disguise of the other.

The minimum is built row by row: every (orientation, first row, column order) is scored at once
with numpy, only the column orders and row choices that tie for the smallest row so far survive,
and the next row is chosen among the rows its band allows. A 9x9 has 1,296 column orders, so
the first row starts from 23,328 candidates and the survivors shrink fast.

Sizes whose column orders run past ``MAX_COLUMN_ORDERS`` (16x16 has 7,962,624) are given a
weaker form, stated by ``CanonicalForm.complete``: invariant under relabelling, band, stack, row
and column moves only as far as the column orders tried (the stack order and identity within
stacks), so disguised copies there may be missed, never wrongly matched.

A variant (a jigsaw's regions, the diagonals) keeps its geometry only under the 8 symmetries of
the square, which move the regions and diagonals with the cells: its form is the smallest, over
those 8, of the regions renumbered in reading order and the givens relabelled, written as
``givens/regions`` with ``/diagonal`` after a diagonal grid, so a jigsaw never meets a classic
grid or another partition. Diagonal grids admit a few more disguises (row and column moves that
keep both diagonals), not tried: their form is not ``complete``.

The work grows with the ties: a grid with few givens ties on many row choices (a blank 25x25
keeps thousands of survivors at every row). It is bounded by ``MAX_FORM_CELLS``, the cells of
candidate rows compared in all, counted before each row is scored; past it ``FormTooCostly``
is raised and the grid has no form (its copies are not looked for). The bound is in cells, not
seconds, so the same grids get a form on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations, product

import numpy as np

from sudoku_batch.pipeline.geometry import CLASSIC
from sudoku_batch.pipeline.grid import GridShape, Puzzle

MAX_COLUMN_ORDERS = 100_000
# Far above what published grids need; only grids with next to no givens pass it (figures:
# docs/book_check.md).
MAX_FORM_CELLS = 1_000_000


class FormTooCostly(Exception):
    """The canonical form would compare more than ``MAX_FORM_CELLS`` cells."""


@dataclass(frozen=True)
class CanonicalForm:
    text: str  # N*N symbols row-major: 0 for empty, then 1.. by first appearance (base 36)
    complete: bool  # False when only part of the column orders was tried (see module notes)


@lru_cache(maxsize=8)
def _column_orders(stack_width: int, stacks: int, full: bool) -> np.ndarray:
    """Every column order that permutes stacks and the columns within each stack."""
    within = list(permutations(range(stack_width))) if full else [tuple(range(stack_width))]
    orders = []
    for stack_order in permutations(range(stacks)):
        for inner in product(within, repeat=stacks):
            orders.append(
                [
                    stack * stack_width + inner[k][j]
                    for k, stack in enumerate(stack_order)
                    for j in range(stack_width)
                ]
            )
    return np.array(orders, dtype=np.intp)


def canonical_form(puzzle: Puzzle) -> CanonicalForm:
    if puzzle.shape.variant != CLASSIC:
        return _variant_form(puzzle)
    n = puzzle.size
    br, bc = puzzle.shape.box_rows, puzzle.shape.box_cols
    grid = np.array([[v or 0 for v in row] for row in puzzle.givens], dtype=np.int64)
    orientations = [(grid, br, bc)]
    if br == bc:
        orientations.append((grid.T.copy(), br, bc))
    full = _count_orders(bc, n // bc) <= MAX_COLUMN_ORDERS
    best: tuple[int, ...] | None = None
    for g, band_height, stack_width in orientations:
        rows = _minimal_rows(g, band_height, _column_orders(stack_width, n // stack_width, full))
        if best is None or rows < best:
            best = rows
    assert best is not None
    return CanonicalForm("".join(_row_text(key, n) for key in best), full)


def _variant_form(puzzle: Puzzle) -> CanonicalForm:
    givens = np.array([[v or 0 for v in row] for row in puzzle.givens], dtype=np.int64)
    regions = np.array(puzzle.shape.geometry.regions, dtype=np.int64)
    best: tuple[str, str] | None = None
    for turns in range(4):
        for transpose in (False, True):
            g, r = np.rot90(givens, turns), np.rot90(regions, turns)
            if transpose:
                g, r = g.T, r.T
            key = (_first_seen_text(g, keep_zero=True), _first_seen_text(r, keep_zero=False))
            if best is None or key < best:
                best = key
    assert best is not None
    diagonal = "/diagonal" if puzzle.shape.diagonals else ""
    return CanonicalForm(f"{best[0]}/{best[1]}{diagonal}", not puzzle.shape.diagonals)


def _first_seen_text(grid: np.ndarray, keep_zero: bool) -> str:
    """``grid`` row-major with its values renumbered by first appearance from 0, in base 36;
    with ``keep_zero`` 0 stays 0 (an empty cell) and the digits are numbered from 1."""
    labels: dict[int, int] = {0: 0} if keep_zero else {}
    for value in grid.flat:
        labels.setdefault(int(value), len(labels))
    return "".join(np.base_repr(labels[int(value)], 36) for value in grid.flat)


def _count_orders(stack_width: int, stacks: int) -> int:
    f = 1
    for k in range(2, stack_width + 1):
        f *= k
    g = 1
    for k in range(2, stacks + 1):
        g *= k
    return f**stacks * g


def _minimal_rows(grid: np.ndarray, band_height: int, orders: np.ndarray) -> tuple[int, ...]:
    """The smallest sequence of relabelled rows (each as an int key) over row choices that keep
    bands together and the given column orders. Each step is a handful of whole-array numpy
    operations over all survivors, whatever their number."""
    n = grid.shape[0]
    bands = n // band_height
    row_band = np.arange(n) // band_height
    weights = (n + 1) ** np.arange(n - 1, -1, -1, dtype=np.int64)
    # Survivors: column order, rows used, current band, relabel map (digit -> label, -1 unset).
    order_idx = np.arange(len(orders))
    used = np.zeros((len(orders), n), dtype=bool)
    band = np.zeros(len(orders), dtype=np.intp)
    labels = np.full((len(orders), n + 1), -1, dtype=np.int64)
    labels[:, 0] = 0
    next_label = np.ones(len(orders), dtype=np.int64)
    keys: list[int] = []
    compared = 0
    for step in range(n):
        if step == 0:
            # Nothing is labelled yet and a row's digits are distinct, so a first row's
            # relabelled form is its pattern of filled cells numbered 1, 2, ... left to right,
            # and two such forms compare as their filled/empty patterns read as binary numbers:
            # score every (row, column order) that way in one go, then keep the best.
            filled = (grid != 0).astype(np.int64)[:, orders]  # (rows, orders, n)
            first = filled @ (1 << np.arange(n - 1, -1, -1, dtype=np.int64))
            rows, states = np.nonzero(first == first.min())
        elif step % band_height:
            allowed = (row_band[None, :] == band[:, None]) & ~used
            states, rows = np.nonzero(allowed)
        else:
            band_free = ~used.reshape(len(used), bands, band_height).any(axis=2)
            states, rows = np.nonzero(band_free[:, row_band] & ~used)
        compared += len(rows) * n
        if compared > MAX_FORM_CELLS:
            raise FormTooCostly(
                f"no canonical form: its ties need more than {MAX_FORM_CELLS:,} cells compared"
            )
        values = grid[rows[:, None], orders[order_idx[states]]]  # (m, n): the row, columns moved
        lab = labels[states]
        nxt = next_label[states]
        mapped = np.take_along_axis(lab, values, axis=1)
        fresh = mapped < 0  # digits seen for the first time take the next labels in order
        out = np.where(fresh, nxt[:, None] + np.cumsum(fresh, axis=1) - 1, mapped)
        row_keys = out @ weights
        smallest = row_keys.min()
        keys.append(int(smallest))
        keep = np.nonzero(row_keys == smallest)[0]
        states, rows, values, lab = states[keep], rows[keep], values[keep], lab[keep]
        fresh, out = fresh[keep], out[keep]
        who, where = np.nonzero(fresh)
        lab[who, values[who, where]] = out[who, where]
        labels, next_label = lab, nxt[keep] + fresh.sum(axis=1)
        order_idx, band = order_idx[states], row_band[rows]
        used = used[states]
        used[np.arange(len(rows)), rows] = True
        if len(order_idx) > 64:
            # Different paths can reach the same column order, rows and labels: one will do.
            signature = np.concatenate([order_idx[:, None], used, labels], axis=1)
            _, unique = np.unique(signature, axis=0, return_index=True)
            order_idx, used, band = order_idx[unique], used[unique], band[unique]
            labels, next_label = labels[unique], next_label[unique]
    return tuple(keys)


def _row_text(key: int, n: int) -> str:
    digits = []
    for _ in range(n):
        key, d = divmod(key, n + 1)
        digits.append(np.base_repr(d, 36))
    return "".join(reversed(digits))


def canonical_text(puzzle: Puzzle) -> str:
    return canonical_form(puzzle).text


__all__ = ["CanonicalForm", "GridShape", "canonical_form", "canonical_text"]
