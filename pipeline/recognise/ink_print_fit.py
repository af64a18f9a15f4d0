"""How far each glyph's height and stroke width lie from what the board's print would be in
its cell, in spreads of how far the print itself lies from it.

A font prints every copy of a digit at one height and one stroke width; across a photo the
print's size changes only smoothly (perspective, a page's bend, blur growing towards one
side), and each digit of a font keeps its own height (a round digit overshoots a flat one, a
7 may reach lower). So a plane over the board's rows and columns, plus each digit's own
offset learnt from the board's other glyphs of that digit, predicts a printed glyph's
measures to within the photo's noise, while a hand's entry, even one as tall as the print on
average, departs from it in one way or both. Each way counts in spreads of the board's own
departures (their median), so a blurred phone photo, whose print departs further, needs a
hand's glyph to depart further too.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import numpy as np

from sudoku_batch.pipeline.recognise.ink_marks import CellInk

# Glyphs departing from the plane more than this many robust deviations are not fitted to
# (entries, a print joined to a line's remnant); the fit is redone this many times.
OUTLIER_DEVIATIONS = 3.0
FIT_ROUNDS = 4
# A robust deviation is the median absolute departure times this (a normal's sigma).
MAD_TO_SIGMA = 1.4826
# A digit's own offset is learnt from at least this many other glyphs of it.
DIGIT_OFFSET_GLYPHS = 2
# The least spread: this share of a pixel of the print's height, and of its stroke's width.
PIXEL_NOISE = 0.5
STROKE_PIXEL_NOISE = 0.25
# Boards with fewer glyphs than this to fit are not judged.
MIN_GLYPHS = 8


def print_departures(
    inks: Mapping[tuple[int, int], CellInk],
    digits: Mapping[tuple[int, int], int],
    copies: Collection[tuple[int, int]],
) -> dict[tuple[int, int], float]:
    """How far each glyph (row, col) of ``inks`` (mostly print, each read as ``digits``)
    departs from the print fitted over them, in height and stroke width, in spreads summed;
    only glyphs whose digit's print is learnt from ``DIGIT_OFFSET_GLYPHS`` others of
    ``copies`` (glyphs with a copy of their digit's shape: a font's print, not a hand that
    writes a digit alike)."""
    cells = [pos for pos in inks if pos in digits]
    if len(cells) < MIN_GLYPHS:
        return {}
    learnt = np.array([pos in copies for pos in cells])
    # Deep heights: a faint line's remnant joined to a glyph (a diagonal's, painted out on its
    # grey fill; the back page's print) is no part of its size.
    heights, known = _residuals(cells, [inks[pos].main.deep for pos in cells], digits, learnt)
    strokes, _ = _residuals(cells, [inks[pos].stroke_width for pos in cells], digits, learnt)
    # A glyph's measures in pixels are quantised (a PDF rendered small snaps its outlines to
    # the pixel grid): PIXEL_NOISE of a pixel of the print's height, and STROKE_PIXEL_NOISE
    # of one of its stroke's width, is no departure.
    glyph_pixels = float(np.median([inks[pos].main.box[3] for pos in cells]))
    stroke_pixels = glyph_pixels * float(
        np.median([inks[pos].stroke_width / inks[pos].main.height for pos in cells])
    )
    height_spread = max(float(np.median(np.abs(heights))), PIXEL_NOISE / glyph_pixels)
    stroke_spread = max(float(np.median(np.abs(strokes))), STROKE_PIXEL_NOISE / stroke_pixels)
    return {
        pos: float(abs(h) / height_spread + abs(s) / stroke_spread)
        for pos, h, s, k in zip(cells, heights, strokes, known, strict=True)
        if k
    }


def _residuals(
    cells: list[tuple[int, int]],
    values: list[float],
    digits: Mapping[tuple[int, int], int],
    learnt: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Each glyph's log measure less the plane over rows and columns and its digit's offset
    (learnt from the digit's other glyphs that are ``learnt`` and fitted to, so a glyph
    never sets its own); and whether its digit's offset was learnt."""
    logs = np.log(np.maximum(values, 1e-6))
    places = np.array([(1.0, row, col) for row, col in cells])
    labels = np.array([digits[pos] for pos in cells])
    offsets = np.zeros(len(cells))
    known = np.zeros(len(cells), dtype=bool)
    fitted = np.ones(len(cells), dtype=bool)
    residuals = logs
    for _ in range(FIT_ROUNDS):
        plane, *_ = np.linalg.lstsq(places[fitted], (logs - offsets)[fitted], rcond=None)
        base = logs - places @ plane
        offsets, known = _digit_offsets(base, labels, learnt)
        residuals = base - offsets
        deviation = MAD_TO_SIGMA * float(np.median(np.abs(residuals)))
        fitted = np.abs(residuals) <= OUTLIER_DEVIATIONS * max(deviation, 1e-9)
    return residuals, known


def _digit_offsets(
    base: np.ndarray, labels: np.ndarray, fitted: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each glyph's digit's offset from the plane: the median of the digit's other fitted
    glyphs, or none with fewer than ``DIGIT_OFFSET_GLYPHS`` of them; and whether it has one."""
    offsets = np.zeros(len(base))
    known = np.zeros(len(base), dtype=bool)
    for index, label in enumerate(labels):
        others = (labels == label) & fitted
        others[index] = False
        if others.sum() >= DIGIT_OFFSET_GLYPHS:
            offsets[index] = float(np.median(base[others]))
            known[index] = True
    return offsets, known
