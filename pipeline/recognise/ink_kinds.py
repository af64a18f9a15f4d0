"""What kind of ink each marked cell holds: a printed given, pencil marks, or a handwritten entry.

A person solving a printed puzzle adds two kinds of marks: candidates, several small digits in a
corner or along an edge of the cell (pencil marks), and entries, one digit written in the cell.
Both are judged against the board's own printed glyphs, never against fixed sizes, so a board
printed large or small, photographed near or far, reads alike:

- The board's print is what most of its marked cells share: the median of their glyphs'
  heights, stroke widths and darkness, taken again over the cells that are not set apart.
- Pencil marks are several small glyphs side by side, or ink well smaller than the print in
  a corner of the cell or against its side (a lone candidate; the board's digits are printed
  centred at least one way); or, when the recogniser, reading the cell as one digit, is
  unsure: ink well smaller than the print and set off where the board prints its digits, a
  glyph against the cell's side, or a run of digits side by side, joined up or not, or
  separate glyphs in a row.
- A handwritten entry differs from the print in several ways at once: taller, thinner or
  thicker strokes, lighter or darker ink. Each way counts as far as it differs
  beyond what one font's digits differ among themselves; a cell of one glyph clear of its
  edges whose height differs so and whose ways add up to ``HANDWRITTEN_SCORE`` is an entry.
- An entry as tall as the print is told from it by how its ink looks
  (``pipeline.recognise.ink_looks_judged``): its colour against the print's, its slant and
  shape against the board's print of the same digit, with its stroke width and darkness; it
  is an entry when these add up to ``LOOKS_SCORE`` spreads, well beyond what the board's own
  print spreads.
- An entry in the print's own ink is told by its shape alone where the board prints its
  digit alike at least twice and the glyph is no copy of it (``twinless``; a hand may write
  the digit alike as often), and it and its own copies depart from the print further than
  those copies.

A board with fewer than ``MIN_PRINTED`` marked cells has too few to learn its print from, and
one whose print mostly reaches its cells' edges (large print) cannot be measured in them: all
their marks are read as printed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from sudoku_batch.pipeline.reading import InkKind
from sudoku_batch.pipeline.recognise.ink_looks import GlyphLook
from sudoku_batch.pipeline.recognise.ink_looks_judged import (
    OFF_COLOUR,
    copied,
    look_spreads,
    nearest_copies,
    twinless,
)
from sudoku_batch.pipeline.recognise.ink_marks import Blob, CellInk
from sudoku_batch.pipeline.recognise.ink_print_fit import print_departures

MIN_PRINTED = 8
# Read as one digit with at least this confidence, a cell holds one digit, not candidates:
# several digits read as one leave the recogniser unsure (bench/ink_kinds.py).
ONE_DIGIT = 0.99
# Pencil marks: ink whose middle sits at least PENCIL_OFF_CENTRE of a cell off where the
# board prints its digits (a lattice a few pixels off moves print far less), all of it at
# most PENCIL_HEIGHT of the print's height...
PENCIL_HEIGHT = 0.9
PENCIL_OFF_CENTRE = 0.12
# Ink off it both ways, and one of them this far, sits in a corner, where a lone candidate
# goes (a keypad's corner places lie a third of a cell off); a print or an entry whose ink is
# partly lost drifts less.
CORNER_OFF_CENTRE = 0.18
# A glyph this far off lies against the cell's side, where no digit is printed or entered:
# candidates of one keypad column run together there.
FAR_OFF_CENTRE = 0.24
# A glyph at least as wide as tall is a run of candidates written joined up (one digit of any
# font is taller than wide); so is one this much wider for its height than the print's digits,
# and at least as wide as a run of digits PENCIL_HEIGHT of the print's height (candidates
# nearly as tall as the print; a printed digit cut short at the cell's edge keeps its width,
# at most 1.2 of the print's median on the development photos and fills, bench/ink_kinds.py).
RUN_ASPECT = 1.0
RUN_WIDTH = 1.4
RUN_LEAST_WIDTH = RUN_WIDTH * PENCIL_HEIGHT
# Glyphs side by side in a row may overlap across by this share of the narrower one (a
# hand's digits lean into each other).
ROW_OVERLAP = 0.25
# Digits written in a row are alike in height: each at least this share of the tallest.
ROW_ALIKE = 0.5
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
# A handwritten entry departs from the print by at least this many spreads, all ways summed,
# at least MIN_HEIGHT_SPREADS of them in its height, and is one glyph (a print broken up is
# measured wrong).
HANDWRITTEN_SCORE = 2.5
MIN_HEIGHT_SPREADS = 1.5
# A glyph at the cell's edge this far (cells) from where the print sits may be joined to a
# line's remnant.
JOINED_SHIFT = 0.1
# Cells read as the same digit that set the height a cell is judged against.
SAME_DIGIT = 2
# A glyph as tall as the print is an entry when its look (colour, slant, shape), stroke width
# and darkness depart from the print by this many spreads summed. Slant and shape count only
# for a glyph not shorter than the print by a height spread (a print that lost ink changes
# shape), and at most SHAPE_MOST spreads: a scan or a page's bend can shear a printed glyph
# too, but cannot change its ink.
LOOKS_SCORE = 8.0
SHAPE_MOST = 4.0
# A whole glyph in the print's ink, clear of the cell's edge, read surely as a digit the
# board prints alike at least twice, is an entry when its height and stroke width depart
# from the print fitted where it stands by this many spreads summed (``ink_print_fit``):
# print that departs most on the development photos, books, fills and synthetic photos
# departs by 9.4, 1.5 times less; entries in black as tall as the print by 1 to 19, half
# of them under 9 (bench/ink_kinds.py).
OFF_PRINT_SCORE = 14.0


@dataclass(frozen=True)
class PrintedInk:
    """The board's printed glyphs: the medians of their main glyph's height, width and offset
    from the cell's centre (some books print digits off it), stroke width and darkness."""

    height: float
    stroke_width: float
    darkness: float
    offset_x: float = 0.0
    offset_y: float = 0.0
    width: float = 0.0


def ink_kinds(
    inks: Mapping[tuple[int, int], CellInk],
    one_digit: Collection[tuple[int, int]] = (),
    digits: Mapping[tuple[int, int], int] | None = None,
    looks: Mapping[tuple[int, int], GlyphLook] | None = None,
) -> dict[tuple[int, int], InkKind]:
    """The kind of each marked cell (row, col) from its measured ink; a marked cell whose ink
    was not found (all specks) is printed, as the cells stage judged it. ``one_digit``: the
    cells the recogniser read as one digit with confidence ``ONE_DIGIT`` (``is_pencil``);
    ``digits``: each cell's digit as read (``_same_digit``); ``looks``: each cell's main
    glyph's look (``looks_score``)."""
    kinds = {pos: InkKind.GIVEN for pos in inks}
    printed = board_print(inks)
    if printed is None:
        return kinds
    for pos, ink in inks.items():
        if is_pencil(ink, printed, pos in one_digit):
            kinds[pos] = InkKind.PENCIL
    # The print learnt again without the marks set apart, then every other mark judged by it.
    unpencilled = {pos: ink for pos, ink in inks.items() if kinds[pos] is InkKind.GIVEN}
    first = {pos for pos, ink in unpencilled.items() if handwriting_score(ink, printed) >= 1}
    rest = [ink for pos, ink in unpencilled.items() if pos not in first]
    if len(rest) >= MIN_PRINTED:
        printed = printed_ink(rest)
    for pos, ink in unpencilled.items():
        if handwriting_score(ink, _same_digit(pos, unpencilled, digits, printed)) >= (
            HANDWRITTEN_SCORE
        ):
            kinds[pos] = InkKind.HANDWRITTEN
    judged = {pos: look for pos, look in (looks or {}).items() if pos in unpencilled}
    colour, shape = look_spreads(judged, digits)
    for pos in colour:
        if looks_score(unpencilled[pos], printed, colour[pos], shape.get(pos, 0.0)) >= (
            LOOKS_SCORE
        ):
            kinds[pos] = InkKind.HANDWRITTEN
    # The print's ink left is compared glyph by glyph: a whole glyph read surely as one digit
    # that is no copy of its digit's print is written in the print's ink, unless those copies
    # depart as far from the board's print (they are the writing: a hand may write one digit
    # alike where its print is once on the board).
    inked = {pos: judged[pos] for pos in colour if kinds[pos] is InkKind.GIVEN}
    inked = {pos: look for pos, look in inked.items() if colour[pos] < OFF_COLOUR}
    whole = [pos for pos in inked if pos in one_digit and _whole(unpencilled[pos], printed)]
    nearest = nearest_copies(inked, digits or {})
    for pos, unlike in twinless(inked, nearest, whole).items():
        # The glyph and its own copies (a hand writing the digit alike) all depart further
        # than the print's copies: else those copies are the hand's and the glyph the print.
        departure = min(_departure(unpencilled[o], printed) for o in [pos, *unlike.own])
        if all(departure > _departure(unpencilled[copy], printed) for copy in unlike.print):
            kinds[pos] = InkKind.HANDWRITTEN
    # Then its height and stroke width against the print fitted where it stands: a font's
    # copies keep both, a hand's do not; unless the copies of its digit depart further from
    # the board's print (they are a hand writing the digit alike).
    still = {pos: ink for pos, ink in unpencilled.items() if kinds[pos] is InkKind.GIVEN}
    copies = copied(nearest)
    departures = print_departures(still, digits or {}, copies)
    for pos in whole:
        if (
            kinds[pos] is InkKind.GIVEN
            and not unpencilled[pos].main.edge
            and departures.get(pos, -1.0) >= OFF_PRINT_SCORE
            and _departure(unpencilled[pos], printed)
            > max(_departure(unpencilled[o], printed) for o in _same(pos, copies, digits))
        ):
            kinds[pos] = InkKind.HANDWRITTEN
    return kinds


def _same(
    pos: tuple[int, int], cells: Collection[tuple[int, int]], digits: Mapping | None
) -> list[tuple[int, int]]:
    """The cells of ``cells`` other than ``pos`` read as its digit."""
    return [o for o in cells if o != pos and (digits or {}).get(o) == (digits or {}).get(pos)]


def board_print(inks: Mapping[tuple[int, int], CellInk]) -> PrintedInk | None:
    """The print of a board whose marked cells' ink is ``inks``, or None when it cannot be
    measured in its cells."""
    if len(inks) < MIN_PRINTED:
        return None
    # Print as large as its cells (a large-print book) runs out of them: not measurable here.
    if 2 * sum(ink.main.edge for ink in inks.values()) > len(inks):
        return None
    printed = printed_ink(inks.values())
    # Print that is not one glyph a cell, taller than wide (digits framed or patterned, a
    # grid's texture) cannot be measured as glyphs either.
    single = sum(len(ink.blobs) == 1 for ink in inks.values())
    if printed.width >= printed.height or 2 * single <= len(inks):
        return None
    return printed


def holds_candidates(ink: CellInk, printed: PrintedInk) -> bool:
    """Whether a cell's ink is several small glyphs side by side, each well smaller than the
    print and none a speck or dot."""
    several = [blob for blob in ink.blobs if blob.height >= SMALLEST_CANDIDATE * printed.height]
    return len(several) >= 2 and all(
        blob.height <= SEVERAL_HEIGHT * printed.height for blob in several
    )


def is_pencil(ink: CellInk, printed: PrintedInk, read_as_one: bool = False) -> bool:
    """Whether a cell's ink is several small glyphs side by side or small ink in a corner or
    against the cell's side (a lone candidate, however sure the recogniser is of it as one
    digit), or (when the recogniser was unsure of it, ``read_as_one`` False) ink small and
    set off where the board prints its digits (candidates in a row along an edge), a glyph
    against the cell's side, or a run of digits side by side, joined up or not, or separate
    glyphs in a row (``_in_a_row``). (A printed digit partly painted out with a line, or
    joined to a line's remnant, can look like the latter three.)"""
    whole, main = ink.whole, ink.main
    small = SMALLEST_CANDIDATE * printed.height <= whole.height <= PENCIL_HEIGHT * printed.height
    if holds_candidates(ink, printed):
        return True
    # Small ink in a corner or against the cell's side is never where a digit is printed,
    # however sure the recogniser is of it as one digit.
    if small and (_in_corner(whole, printed) or _shift(whole, printed) >= FAR_OFF_CENTRE):
        return True
    if read_as_one:
        return False
    if small and _shift(whole, printed) >= PENCIL_OFF_CENTRE:
        return True
    if _shift(main, printed) >= FAR_OFF_CENTRE and main.height >= 0.5 * printed.height:
        return True
    return (
        _is_run(main, printed)
        or _is_run(_candidate_glyphs(ink, printed), printed)
        or _in_a_row(ink, printed)
    )


def _in_a_row(ink: CellInk, printed: PrintedInk) -> bool:
    """Whether a cell's ink is several separate glyphs of a candidate's size, alike in height,
    standing side by side in one row, together ``RUN_LEAST_WIDTH`` times as wide as the print's
    digits: candidates, however tall for their width (a printed digit is one glyph, and the
    pieces of one broken up overlap or stack; a speck or a line's piece beside a digit is far
    shorter than it). Asked only of ink the recogniser is unsure of: an entry written in two
    strokes (an open 4) is two glyphs side by side too, read surely as its digit."""
    glyphs = sorted(_candidate_sized(ink, printed), key=lambda blob: blob.offset_x)
    if len(glyphs) < 2:
        return False
    tallest = max(blob.height for blob in glyphs)
    if min(blob.height for blob in glyphs) < ROW_ALIKE * tallest:
        return False
    apart = all(
        right.offset_x - right.width / 2
        >= left.offset_x + left.width / 2 - ROW_OVERLAP * min(left.width, right.width)
        for left, right in itertools.pairwise(glyphs)
    )
    row = _candidate_glyphs(ink, printed)
    # Against the cell's edge a glyph may be a line's remnant beside a print (``_is_run``).
    return (
        apart
        and row.height <= HEIGHT_SPREAD * tallest
        and row.width >= RUN_LEAST_WIDTH * printed.width
        and (not row.edge or row.height <= HEIGHT_SPREAD * printed.height)
    )


def _is_run(blob: Blob, printed: PrintedInk) -> bool:
    """Whether ink is a run of candidates side by side (``run_shaped``). Against the cell's
    edge it may be a print joined to a line's remnant, which stands taller than the print by
    the gap to the line; a run there is no taller."""
    return run_shaped(blob, printed) and (
        not blob.edge or blob.height <= HEIGHT_SPREAD * printed.height
    )


def run_shaped(blob: Blob, printed: PrintedInk) -> bool:
    """Whether a glyph is shaped like digits side by side: wider for its height than the
    print's digits by ``RUN_WIDTH``, and at least as wide as a run of candidates nearly as
    tall as the print (``RUN_LEAST_WIDTH``; a print cut short at the cell's edge keeps its
    width)."""
    return (
        blob.width * printed.height >= RUN_WIDTH * printed.width * blob.height
        and blob.width >= RUN_LEAST_WIDTH * printed.width
    )


def _candidate_glyphs(ink: CellInk, printed: PrintedInk) -> Blob:
    """The cell's glyphs of a candidate's size as one: specks and dots left out, and slivers
    narrower than the print's strokes (what is left of a line)."""
    glyphs = _candidate_sized(ink, printed)
    return CellInk(tuple(glyphs), ink.stroke_width, ink.darkness).whole if glyphs else ink.main


def _candidate_sized(ink: CellInk, printed: PrintedInk) -> list[Blob]:
    """The cell's glyphs of a candidate's size (``_candidate_glyphs``)."""
    return [
        blob
        for blob in ink.blobs
        if blob.height >= SMALLEST_CANDIDATE * printed.height and blob.width >= printed.stroke_width
    ]


def _in_corner(blob: Blob, printed: PrintedInk) -> bool:
    """Whether ink sits in a corner: off where the board prints its digits both across and
    down, and well off one of them."""
    off = sorted((abs(blob.offset_x - printed.offset_x), abs(blob.offset_y - printed.offset_y)))
    return off[0] >= PENCIL_OFF_CENTRE and off[1] >= CORNER_OFF_CENTRE


def _same_digit(
    pos: tuple[int, int],
    inks: Mapping[tuple[int, int], CellInk],
    digits: Mapping[tuple[int, int], int] | None,
    printed: PrintedInk,
) -> PrintedInk:
    """The print a cell is judged against: the board's, its height that of the other cells
    read as the same digit when there are SAME_DIGIT of them (a font's 7 or 9 may reach below
    the others, as old-style figures do)."""
    if not digits or pos not in digits:
        return printed
    heights = [
        ink.main.height
        for other, ink in inks.items()
        if other != pos and digits.get(other) == digits[pos]
    ]
    if len(heights) < SAME_DIGIT:
        return printed
    return replace(printed, height=max(printed.height, float(np.median(heights))))


def _joined(blob: Blob, printed: PrintedInk) -> bool:
    """Whether a glyph reaching the cell's edge may be a print joined to a line's remnant:
    wider than the print, or pulled off where it prints towards the edge."""
    return blob.edge and (
        blob.width >= RUN_WIDTH * printed.width or _shift(blob, printed) >= JOINED_SHIFT
    )


def _shift(blob: Blob, printed: PrintedInk) -> float:
    """How far a glyph sits from where the board prints its digits, in cells."""
    return max(abs(blob.offset_x - printed.offset_x), abs(blob.offset_y - printed.offset_y))


def handwriting_score(ink: CellInk, printed: PrintedInk) -> float:
    """How far a cell's ink departs from the print, in spreads summed over the ways it can."""
    # Only a glyph taller than the print counts: a printed digit measures shorter whenever
    # part of its ink is lost (faint, painted out with a line, cut by a lattice a few pixels
    # off); line remnants that would make it taller are left out of the blobs, and so is faint
    # ink joined to it (the back page's print showing through: ``Blob.deep``).
    main = ink.main
    height = _spreads(main.deep, printed.height, HEIGHT_SPREAD)
    taller = main.deep > printed.height
    if not taller or height < MIN_HEIGHT_SPREADS or len(ink.blobs) > 1:
        return 0.0
    if _joined(main, printed):
        return 0.0
    return _departure(ink, printed)


def looks_score(ink: CellInk, printed: PrintedInk, colour: float, shape: float) -> float:
    """How far a cell's glyph departs from the print by its look (``colour``, and ``shape``
    with slant, in spreads from ``pipeline.recognise.ink_looks_judged``), stroke width and
    darkness, in spreads summed; 0 for ink that is not one glyph clear of a line."""
    main = ink.main
    if len(ink.blobs) > 1 or _joined(main, printed):
        return 0.0
    if main.height * HEIGHT_SPREAD < printed.height:
        shape = 0.0
    shape = min(shape, SHAPE_MOST)
    return (
        colour
        + shape
        + _spreads(ink.stroke_width, printed.stroke_width, STROKE_SPREAD)
        + _spreads(ink.darkness, printed.darkness, DARKNESS_SPREAD)
    )


def _whole(ink: CellInk, printed: PrintedInk) -> bool:
    """Whether a cell's ink is one glyph clear of a line, taller than wide, and not shorter
    than the print by a height spread (a print that lost ink, or was joined to other ink,
    changes shape)."""
    main = ink.main
    return (
        len(ink.blobs) == 1
        and not _joined(main, printed)
        and main.width < RUN_ASPECT * main.height
        and main.height * HEIGHT_SPREAD >= printed.height
    )


def _departure(ink: CellInk, printed: PrintedInk) -> float:
    """How far a cell's ink departs from the board's print in height, stroke width and
    darkness, either way, in spreads summed."""
    return (
        _spreads(ink.main.height, printed.height, HEIGHT_SPREAD)
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
        offset_x=float(np.median([ink.main.offset_x for ink in inks])),
        offset_y=float(np.median([ink.main.offset_y for ink in inks])),
        width=float(np.median([ink.main.width for ink in inks])),
    )
