"""Is a lattice a Sudoku grid? Decided from what the reader sees, before anything is solved.

Books print other lattices beside their puzzles: "hints" grids numbering the order the cells are
solved in (1..57 in a 9x9), number tables, calendars. Read as Sudoku they give dozens of
clashing "givens", false "unsolvable" verdicts and answer keys paired with the wrong grid. And a
lattice cut by the image's edge (a photo framed too tight, a truncated file) is a fragment whose
cells are not the puzzle's. Either is another grid: it keeps its reading but gets no verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sudoku_batch.pipeline.vision.lattice import SIZES

# A cell counts as holding a number beyond the grid's symbols when its reading as a number
# (1..99) is one above N at this confidence or more.
SURE_NUMBER = 0.9
# A grid is another grid when at least this many of its printed cells, and at least this share
# of them, hold such numbers: a Sudoku misread in a cell or two is still a Sudoku.
MIN_BEYOND = 3
MIN_BEYOND_SHARE = 0.25
# Or when at least this share of its printed cells read as no one symbol, sure neither as a
# digit of the grid nor as a number: the lattice cuts across what is printed (several numbers
# or words in a cell, as when a calendar's lattice is taken for a smaller square one).
MIN_UNREADABLE_SHARE = 0.5
# The largest grid read.
MAX_SIZE = max(SIZES)
# A lattice corner this far outside the image, in cells, leaves cells out of the picture (a grid
# whose border lies on the image's edge is still whole: photos are framed that tight).
OUTSIDE_CELLS = 0.5


@dataclass(frozen=True)
class NumberReading:
    """A cell read as a number of up to two digits, whatever the grid's size."""

    row: int
    col: int
    value: int
    confidence: float


def numbers_beyond(size: int, numbers: Sequence[NumberReading]) -> list[NumberReading]:
    """The cells confidently read as a number no N x N Sudoku prints."""
    return [n for n in numbers if n.value > size and n.confidence >= SURE_NUMBER]


def other_reason(
    size: int, printed: int, numbers: Sequence[NumberReading], sure_digits: int | None = None
) -> str | None:
    """Why a grid of ``printed`` printed cells, read as ``numbers``, is no Sudoku; None: it
    may be one. ``sure_digits``: how many of the same cells read at ``SURE_NUMBER`` or more
    as one of the grid's own symbols (None: not known)."""
    beyond = numbers_beyond(size, numbers)
    if len(beyond) < MIN_BEYOND or len(beyond) < MIN_BEYOND_SHARE * printed:
        return _unreadable_reason(size, printed, numbers, sure_digits)
    example = max(beyond, key=lambda n: n.value)
    return (
        f"not a Sudoku: {len(beyond)} of its {printed} printed cells hold numbers beyond "
        f"{size} (r{example.row + 1}c{example.col + 1} reads {example.value}); a hints "
        "(solving order) grid, a number table or a calendar"
    )


def _unreadable_reason(
    size: int, printed: int, numbers: Sequence[NumberReading], sure_digits: int | None
) -> str | None:
    if sure_digits is None:
        return None
    sure_numbers = sum(1 for n in numbers if n.confidence >= SURE_NUMBER)
    unreadable = printed - max(sure_digits, sure_numbers)
    if unreadable < MIN_BEYOND or unreadable < MIN_UNREADABLE_SHARE * printed:
        return None
    return (
        f"not a Sudoku: {unreadable} of its {printed} printed cells read as no one symbol of "
        f"a {size}x{size} grid nor as one number (several numbers or words in a cell): a "
        "calendar or a table whose lattice was taken for a smaller grid"
    )


def crossed_reason(size: int, parts: int) -> str:
    """Why a lattice measured as ``size`` cells a side, its cells cut into ``parts`` by further
    lines (``pipeline.vision.lattice.cell_parts``), is no grid read here: a grid of more lines
    than any size read (a 36x36, whose every third line makes a 12x12), or a table or calendar
    whose lattice is no square grid."""
    finer = size * parts
    if finer > MAX_SIZE:
        return (
            f"not a supported Sudoku: a {finer}x{finer} grid (its lines were first measured "
            f"as a {size}x{size}); sizes up to {MAX_SIZE}x{MAX_SIZE} are read"
        )
    return (
        f"not a Sudoku: further lines cross the cells of the {size}x{size} lattice measured "
        "(a table or a calendar whose lines make no square grid)"
    )


def fragment_reason(
    corners: np.ndarray, size: int, page_size: tuple[int, int] | None
) -> str | None:
    """Why a lattice of ``size`` cells a side at ``corners`` (page pixels, x y) on a page of
    ``page_size`` (height, width) is a fragment: its cells run out of the image."""
    if page_size is None:
        return None
    height, width = page_size
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    margin = OUTSIDE_CELLS * float(sides.min()) / size
    xs, ys = corners[:, 0], corners[:, 1]
    if (
        xs.min() >= -margin
        and ys.min() >= -margin
        and xs.max() <= width - 1 + margin
        and ys.max() <= height - 1 + margin
    ):
        return None
    return "a fragment: the lattice runs out of the image, so some of its cells are missing"


def damage_reason(damaged: str) -> str:
    """Why a grid on a damaged page (``pipeline.ingest.damage``) is no puzzle to solve."""
    return f"not solved, as it may be a fragment: the page is damaged ({damaged})"
