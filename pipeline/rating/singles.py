"""Singles, the only techniques a grid needs at SE 1.0-2.3.

Sudoku Explainer rates them by how far one must look: the last open cell of a unit (1.0), the
only place for a digit in a box (1.2) or in a row or column (1.5), and the only digit left in a
cell (2.3), which needs every candidate of the cell in mind. Each finder returns every single of
its kind at once: they are independent deductions of the same difficulty.
"""

from __future__ import annotations

from sudoku_batch.pipeline.rating.candidates import Board
from sudoku_batch.pipeline.rating.step import Step

FULL_HOUSE = 1.0
HIDDEN_SINGLE_BOX = 1.2
HIDDEN_SINGLE_LINE = 1.5
NAKED_SINGLE = 2.3


def full_house(board: Board) -> Step | None:
    open_cells = 0  # an open cell has a candidate left, so its digit's places include it
    for places in board.places:
        open_cells |= places
    found = {}
    for unit in board.geo.unit_masks:
        here = open_cells & unit
        if here and not here & (here - 1):
            cell = here.bit_length() - 1
            found[cell] = board.cands[cell].bit_length()
    return Step("Full house", FULL_HOUSE, tuple(found.items())) if found else None


def unit_hidden_singles(board: Board, unit: tuple[int, ...]) -> list[tuple[int, int]]:
    """(cell, digit) for each digit with exactly one place left in ``unit``."""
    cands = board.cands
    once = twice = 0
    for c in unit:
        m = cands[c]
        twice |= once & m
        once |= m
    alone = once & ~twice
    out = []
    while alone:
        bit = alone & -alone
        alone ^= bit
        cell = next(c for c in unit if cands[c] & bit)
        out.append((cell, bit.bit_length()))
    return out


def _hidden_singles(board: Board, units: range, name: str, difficulty: float) -> Step | None:
    found: dict[int, int] = {}
    for u in units:
        for cell, digit in unit_hidden_singles(board, board.geo.units[u]):
            found.setdefault(cell, digit)  # a second digit for one cell shows up on placing
    return Step(name, difficulty, tuple(found.items())) if found else None


def hidden_single_box(board: Board) -> Step | None:
    n, units = board.geo.size, len(board.geo.units)
    # Regions and the extra units (diagonals) alike: the rating is SE's for boxes.
    return _hidden_singles(board, range(2 * n, units), "Hidden single (box)", HIDDEN_SINGLE_BOX)


def hidden_single_line(board: Board) -> Step | None:
    n = board.geo.size
    return _hidden_singles(board, range(2 * n), "Hidden single (line)", HIDDEN_SINGLE_LINE)


def naked_single(board: Board) -> Step | None:
    found = tuple(
        (cell, m.bit_length()) for cell, m in enumerate(board.cands) if m and m & (m - 1) == 0
    )
    return Step("Naked single", NAKED_SINGLE, found) if found else None
