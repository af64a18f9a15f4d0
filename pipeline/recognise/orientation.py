"""Which way up a board's givens are, from the givens themselves.

Photos are read without their EXIF orientation (it is often wrong), so a board may lie on its
side or upside down. Two cues decide it:

- Printed digits are taller than wide, so the ink's shape tells upright-or-upside-down from
  lying on a side. The recogniser cannot: PP-OCR reads digits turned a quarter counter-clockwise
  (vertical text) as confidently as upright ones.
- Between the two turns left, the recogniser can: digits upside down read with far lower
  confidence. A spread-out sample is read both ways and the higher total log-confidence wins;
  several cells are needed because a 6 upside down reads as a good 9. When nearly every given
  already reads with high confidence the first way up, that settles it and the sample is not
  read (upside down, only the digits that survive a half turn, 1, 8 and 6 or 9, read well).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from sudoku_batch.pipeline.reading import DigitReading
from sudoku_batch.pipeline.recognise.glyphs import Glyph
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine

# Givens read both ways to choose between upright and upside down.
ORIENTATION_SAMPLE = 8
# A read is settled as upright when at least SURE_SHARE of its (at least ORIENTATION_SAMPLE)
# givens read at SURE_CONFIDENCE or more. On the 159 wichtounet boards read with true corners and
# with corners moved up to 0.15 cell (bench/ocr_calibration.py), upright reads had >= 0.92 of
# their givens that sure (one board 0.49), upside-down reads at most 0.31.
SURE_CONFIDENCE = 0.99
SURE_SHARE = 0.8
LOG_FLOOR = 1e-12
# Ink blobs this close to square (|log(height / width)|) say nothing of which way up they are.
# Every digit 1-9 of the 22 fonts synth draws with is at least 0.18 taller than wide (a bold
# 4); a digit clipped by its cell (a large-print book's) comes out within 0.08 of square.
SQUARE = 0.09


def lies_sideways(glyphs: Sequence[Glyph]) -> bool:
    """Whether the digits' ink is mostly wider than tall (the board is on its side)."""
    aspects = [aspect for glyph in glyphs for aspect in glyph.aspects if abs(aspect) >= SQUARE]
    return bool(aspects) and float(np.median(aspects)) < 0.0


def read_upright(
    glyphs: Sequence[Glyph], engine: OcrEngine, symbols: Mapping[str, int]
) -> tuple[int, list[DigitReading]]:
    """How many counter-clockwise quarter turns make the glyphs upright, and their readings
    read that way up.

    The sample turned the other way is read in a call of its own: the engine sets crops side by
    side in text lines, and upside-down digits beside upright ones spoil their reading.
    """
    if not glyphs:
        return 0, []
    crops = [glyph.crop for glyph in glyphs]
    first = 1 if lies_sideways(glyphs) else 0
    second = first + 2
    sample = spread_sample(len(crops), ORIENTATION_SAMPLE)
    upright = engine.read_digits([np.rot90(c, first) for c in crops], symbols)
    if settled_upright(upright):
        return first, upright
    flipped = engine.read_digits([np.rot90(crops[i], second) for i in sample], symbols)
    if sum_log_confidence(flipped) <= sum_log_confidence(upright[i] for i in sample):
        return first, upright
    return second, engine.read_digits([np.rot90(c, second) for c in crops], symbols)


def settled_upright(readings: Sequence[DigitReading]) -> bool:
    """Whether readings this sure need no comparison with the other way up."""
    if len(readings) < ORIENTATION_SAMPLE:
        return False
    sure = sum(1 for reading in readings if reading.confidence >= SURE_CONFIDENCE)
    return sure >= SURE_SHARE * len(readings)


def sum_log_confidence(readings) -> float:
    return float(sum(np.log(max(r.confidence, LOG_FLOOR)) for r in readings))


def spread_sample(count: int, size: int) -> list[int]:
    """Up to ``size`` indices spread evenly over 0..count-1."""
    return sorted({int(i) for i in np.linspace(0, count - 1, min(count, size)).round()})
