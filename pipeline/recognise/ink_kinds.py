"""What kind of ink each marked cell holds: a printed given, pencil marks, or a handwritten entry.

A person solving a printed puzzle adds two kinds of marks: candidates, several small digits in a
corner or along an edge of the cell (pencil marks), and entries, one digit written in the cell.
Both are judged against the board's own printed glyphs, never against fixed sizes, so a board
printed large or small, photographed near or far, reads alike:

- The board's print is what most of its marked cells share: the median of their glyphs'
  heights, stroke widths and darkness, taken again over the cells that are not set apart.
- Pencil marks are glyphs well smaller than the print and set off the cell's centre, or
  several small glyphs side by side.
- A handwritten entry differs from the print in several ways at once: taller or shorter,
  thinner or thicker strokes, lighter or darker ink. Each way counts as far as it differs
  beyond what one font's digits differ among themselves; a cell whose ways add up to
  ``HANDWRITTEN_SCORE`` is an entry.

A board with fewer than ``MIN_PRINTED`` marked cells has too few to learn its print from: all
its marks are read as printed, as before.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from pipeline.reading import InkKind
from pipeline.recognise.ink_marks import CellInk

MIN_PRINTED = 8
# Pencil marks: a glyph at most this share of the print's height whose centre sits at least
# PENCIL_OFF_CENTRE of a cell off the cell's centre (print is centred; a lattice a few pixels
# off moves it far less)...
PENCIL_HEIGHT = 0.9
PENCIL_OFF_CENTRE = 0.12
# ...or several glyphs, each at most this share of the print's height (glyphs below
# SMALLEST_CANDIDATE of it are specks and dots).
SEVERAL_HEIGHT = 0.75
SMALLEST_CANDIDATE = 0.25
# How far apart one font's digits lie, as ratios: heights (lining figures share one height;
# blur and a lattice a pixel off move them a little), stroke widths and darkness (print fades
# and blurs across a photo).
HEIGHT_SPREAD = 1.12
STROKE_SPREAD = 1.3
DARKNESS_SPREAD = 1.3
# A handwritten entry departs from the print by at least this many spreads, all ways summed.
HANDWRITTEN_SCORE = 2.5


@dataclass(frozen=True)
class PrintedInk:
    """The board's printed glyphs: the medians of their tallest glyph, stroke width, darkness."""

    height: float
    stroke_width: float
    darkness: float


def ink_kinds(inks: Mapping[tuple[int, int], CellInk]) -> dict[tuple[int, int], InkKind]:
    """The kind of each marked cell (row, col) from its measured ink; a marked cell whose ink
    was not found (all specks) is printed, as the cells stage judged it."""
    kinds = {pos: InkKind.GIVEN for pos in inks}
    if len(inks) < MIN_PRINTED:
        return kinds
    printed = printed_ink(inks.values())
    for pos, ink in inks.items():
        if is_pencil(ink, printed):
            kinds[pos] = InkKind.PENCIL
    # The print learnt again without the marks set apart, then every other mark judged by it.
    unpencilled = {pos: ink for pos, ink in inks.items() if kinds[pos] is InkKind.GIVEN}
    first = {pos for pos, ink in unpencilled.items() if handwriting_score(ink, printed) >= 1}
    rest = [ink for pos, ink in unpencilled.items() if pos not in first]
    if len(rest) >= MIN_PRINTED:
        printed = printed_ink(rest)
    for pos, ink in unpencilled.items():
        if handwriting_score(ink, printed) >= HANDWRITTEN_SCORE:
            kinds[pos] = InkKind.HANDWRITTEN
    return kinds


def is_pencil(ink: CellInk, printed: PrintedInk) -> bool:
    """Whether a cell's ink is a small glyph set off its centre (candidates written in a row
    along an edge, or in a corner), or several small glyphs side by side."""
    main = ink.main
    off_centre = max(abs(main.offset_x), abs(main.offset_y)) >= PENCIL_OFF_CENTRE
    if off_centre and main.height <= PENCIL_HEIGHT * printed.height:
        return True
    small = [blob for blob in ink.blobs if blob.height >= SMALLEST_CANDIDATE * printed.height]
    return len(small) >= 2 and all(blob.height <= SEVERAL_HEIGHT * printed.height for blob in small)


def handwriting_score(ink: CellInk, printed: PrintedInk) -> float:
    """How far a cell's ink departs from the print, in spreads summed over the ways it can."""
    height = _spreads(ink.main.height, printed.height, HEIGHT_SPREAD)
    if height < 1 or not ink.clean:
        return height
    return (
        height
        + _spreads(ink.stroke_width, printed.stroke_width, STROKE_SPREAD)
        + _spreads(ink.darkness, printed.darkness, DARKNESS_SPREAD)
    )


def _spreads(value: float, typical: float, spread: float) -> float:
    if value <= 0 or typical <= 0:
        return 0.0
    return abs(math.log(value / typical)) / math.log(spread)


def printed_ink(inks: Iterable[CellInk]) -> PrintedInk:
    """The print of a board whose marked cells' ink is ``inks`` (most of them printed)."""
    inks = list(inks)
    return PrintedInk(
        height=float(np.median([ink.main.height for ink in inks])),
        stroke_width=float(np.median([ink.stroke_width for ink in inks])),
        darkness=float(np.median([ink.darkness for ink in inks])),
    )
