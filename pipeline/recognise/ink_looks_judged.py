"""How far each glyph's look departs from the board's print, in spreads: its ink's colour, and
its slant and shape against the other glyphs read as the same digit.

Each way counts against how much the board's own print varies that way (the typical
departure of its glyphs, never below what a photo's noise makes of one font's digits), so a
board printed in colour, photographed under a cast or in an italic font reads alike. Slant
and shape are compared only with same-digit glyphs that agree among themselves and share the
print's colour: a printed given whose other same-digit cells are handwritten entries has no
print to compare with, and is not judged by them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import NamedTuple

import numpy as np

from sudoku_batch.pipeline.recognise.ink_looks import GlyphLook, paper_distance, shape_distance

# The least departure that counts as one spread, each way: chroma (Lab units; JPEG, sensor
# noise and light of uneven colour move a print's colour about this much), shape distance
# and slant (x shift per unit of height; blur and a lattice a pixel off move them so much).
COLOUR_NOISE = 3.0
SHAPE_NOISE = 0.05
SLANT_NOISE = 0.06
# Same-digit glyphs agree among themselves when no two lie further apart in shape than this
# many of the board's typical spreads; at least SAME_DIGIT of them are compared with.
AGREE_SPREADS = 2.0
SAME_DIGIT = 2
# Glyphs this many colour spreads off the print are not the print a shape is compared with.
OFF_COLOUR = 3.0
# Two copies of one print lie at least this far apart in shape in a sharp photo (a pixel's
# blur, a lattice a pixel off). Copies lie within TWIN_SPREADS of the board's median distance
# of a glyph to its nearest same-digit glyph; a glyph TWINLESS_SPREADS of its upper quartile
# (the print's worst copies: blur across a phone photo, a remnant of a line joined) from every
# same-digit glyph is no copy. Print on the development photos lies under 15 quartiles from
# its nearest copy (2 of 3,911 beyond 10); a fifth of synthetic entries in black lie beyond
# 15 (bench/ink_kinds.py).
TWIN_NOISE = 0.003
TWIN_SPREADS = 3.0
TWINLESS_QUANTILE = 75
TWINLESS_SPREADS = 15.0
# Glyphs are copies of one print only on papers this close in colour (8-bit Lab): a fill
# under a glyph changes how its ink parts from its paper, so its shape, from its copies'
# on white (a region's pastel fill or a diagonal's grey lies 15 or more from white).
PAPER_ALIKE = 8.0


def look_spreads(
    looks: Mapping[tuple[int, int], GlyphLook],
    digits: Mapping[tuple[int, int], int] | None,
) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], float]]:
    """How far each glyph (row, col) of ``looks`` departs from the board's print, in spreads:
    in colour, and in slant and shape summed (``digits``: each cell's digit as read; a glyph
    without same-digit print to compare with is left out of the latter)."""
    if not looks:
        return {}, {}
    colour = _colour_spreads(looks)
    return colour, _same_digit_spreads(looks, digits or {}, colour)


def _colour_spreads(looks: Mapping[tuple[int, int], GlyphLook]) -> dict[tuple[int, int], float]:
    chroma = np.array([look.chroma for look in looks.values()], dtype=float)
    off = np.linalg.norm(chroma - np.median(chroma, axis=0), axis=1)
    spread = max(float(np.median(off)), COLOUR_NOISE)
    return {pos: float(value) / spread for pos, value in zip(looks, off, strict=True)}


def _same_digit_spreads(
    looks: Mapping[tuple[int, int], GlyphLook],
    digits: Mapping[tuple[int, int], int],
    colour: Mapping[tuple[int, int], float],
) -> dict[tuple[int, int], float]:
    """Each glyph's shape and slant departure from the print of its digit, in spreads; a
    glyph whose digit has too few printed-looking glyphs that agree is left out."""
    groups: dict[int, list[tuple[int, int]]] = {}
    for pos in looks:
        if pos in digits and colour[pos] < OFF_COLOUR:
            groups.setdefault(digits[pos], []).append(pos)
    typical = _typical_shape_distance(looks, groups)
    shape_spread = max(typical, SHAPE_NOISE)
    slant_spread = max(_typical_slant_departure(looks, groups), SLANT_NOISE)
    found = {}
    for pos, look in looks.items():
        peers = [other for other in groups.get(digits.get(pos, -1), []) if other != pos]
        if len(peers) < SAME_DIGIT or not _agree(looks, peers, AGREE_SPREADS * shape_spread):
            continue
        distance = float(np.median([shape_distance(look, looks[other]) for other in peers]))
        slant = abs(look.slant - float(np.median([looks[other].slant for other in peers])))
        found[pos] = max(distance - typical, 0.0) / shape_spread + slant / slant_spread
    return found


def _agree(looks: Mapping[tuple[int, int], GlyphLook], peers: list, most: float) -> bool:
    return all(
        shape_distance(looks[first], looks[second]) <= most
        for index, first in enumerate(peers)
        for second in peers[index + 1 :]
    )


def _typical_shape_distance(looks: Mapping, groups: Mapping[int, list]) -> float:
    """The median distance of a glyph to its nearest same-digit glyph."""
    nearest = [
        min(shape_distance(looks[pos], looks[other]) for other in group if other != pos)
        for group in groups.values()
        if len(group) > 1
        for pos in group
    ]
    return float(np.median(nearest)) if nearest else 0.0


def _typical_slant_departure(looks: Mapping, groups: Mapping[int, list]) -> float:
    """The median departure of a glyph's slant from its same-digit glyphs' median."""
    departures = [
        abs(looks[pos].slant - float(np.median([looks[other].slant for other in group])))
        for group in groups.values()
        if len(group) > 2
        for pos in group
    ]
    return float(np.median(departures)) if departures else 0.0


class NearestCopies(NamedTuple):
    """Per glyph of a board, its shape distance to the nearest glyph read as the same digit on
    paper like its own (``PAPER_ALIKE``), and all those glyphs (its peers)."""

    distance: dict[tuple[int, int], float]
    peers: dict[tuple[int, int], list[tuple[int, int]]]


def nearest_copies(
    looks: Mapping[tuple[int, int], GlyphLook], digits: Mapping[tuple[int, int], int]
) -> NearestCopies:
    """Each glyph of ``looks`` with its nearest copy's distance and its peers
    (``NearestCopies``), measured once for ``twinless`` and ``copied``."""
    nearest: dict[tuple[int, int], float] = {}
    peers: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for pos in looks:
        peers[pos] = [
            o
            for o in looks
            if o != pos
            and digits.get(o) == digits.get(pos)
            and paper_distance(looks[o], looks[pos]) <= PAPER_ALIKE
        ]
        if pos in digits and peers[pos]:
            nearest[pos] = min(shape_distance(looks[pos], looks[o]) for o in peers[pos])
    return NearestCopies(nearest, peers)


class Unlike(NamedTuple):
    """A glyph's digit's print it is no copy of: the two copies of it closest to each other
    (``print``); and the glyph's own near copies (``own``: a hand writing the digit alike)."""

    print: tuple[tuple[int, int], tuple[int, int]]
    own: list[tuple[int, int]]


def twinless(
    looks: Mapping[tuple[int, int], GlyphLook],
    copies: NearestCopies,
    judged: Collection[tuple[int, int]],
) -> dict[tuple[int, int], Unlike]:
    """The glyphs of ``judged`` unlike two glyphs of ``looks`` (all in the print's ink) read
    as the same digit that are copies of one another: the board's print of that digit, which
    the glyph is not (``Unlike``; the glyph's other same-digit glyphs are its own copies, no
    more of them with it than the glyphs it is unlike). ``copies``: ``nearest_copies`` of
    ``looks``.

    A font prints a digit the same each time, so its copies differ only by the photo's noise,
    however the font or a scan slants them; a hand writes a digit only roughly alike, which
    makes its entries near copies of each other but not of the print. Glyphs are compared
    only with glyphs on paper like theirs (``PAPER_ALIKE``)."""
    nearest, peers = copies
    if not nearest:
        return {}
    distances = list(nearest.values())
    typical = max(float(np.median(distances)), TWIN_NOISE)
    worst = max(float(np.percentile(distances, TWINLESS_QUANTILE)), TWIN_NOISE)
    found = {}
    for pos in nearest:
        if pos not in judged:
            continue
        unlike = [
            o
            for o in peers[pos]
            if shape_distance(looks[pos], looks[o]) >= TWINLESS_SPREADS * worst
        ]
        own = [o for o in peers[pos] if o not in unlike]
        # The print is the digit's shape the board holds at least as often: a font's digit
        # off the board's print in size, beside a hand writing it alike, keeps its print.
        if len(own) + 1 > len(unlike):
            continue
        pair = _closest_pair(looks, unlike)
        if pair is not None and shape_distance(*(looks[c] for c in pair)) <= (
            TWIN_SPREADS * typical
        ):
            found[pos] = Unlike(pair, own)
    return found


def copied(copies: NearestCopies) -> set[tuple[int, int]]:
    """The glyphs with a copy among the other glyphs read as the same digit on paper like
    theirs (within ``TWIN_SPREADS`` of the board's median nearest-copy distance): the board's
    print of those digits, as a font prints them. ``copies``: ``nearest_copies``."""
    nearest = copies.distance
    if not nearest:
        return set()
    typical = max(float(np.median(list(nearest.values()))), TWIN_NOISE)
    return {pos for pos, distance in nearest.items() if distance <= TWIN_SPREADS * typical}


def _closest_pair(
    looks: Mapping[tuple[int, int], GlyphLook], glyphs: list[tuple[int, int]]
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    pairs = [(first, second) for i, first in enumerate(glyphs) for second in glyphs[i + 1 :]]
    if not pairs:
        return None
    return min(pairs, key=lambda pair: shape_distance(looks[pair[0]], looks[pair[1]]))
