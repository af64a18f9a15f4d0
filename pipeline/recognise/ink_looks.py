"""How a cell's main glyph looks beyond its size: the colour of its ink, its slant and its
shape, each as it can be compared with the board's other glyphs
(``pipeline.recognise.ink_kinds`` judges them against the board's own print).

Colour is the ink's chroma less that of the board's paper, so a photo's colour cast, which
tints paper and ink alike, drops out. The board's paper, not the paper right around the glyph:
a digit printed on a coloured fill (a diagonal's or a region's tint) is as black as the rest
of the print, and less its fill it would look a colour of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from sudoku_batch.pipeline.recognise.ink_marks import CellInk

# A glyph's shape is compared at this many pixels square, its height filling it...
SHAPE_SIZE = 24
# ...blurred by this share of it, so a stroke a pixel off or a little wider barely counts.
SHAPE_BLUR = 0.06
# Glyphs fewer pixels tall than this are too small to measure slant and shape on.
SMALLEST_GLYPH = 8


@dataclass(frozen=True)
class GlyphLook:
    """A glyph's ink colour (its Lab a*, b* less its paper's), slant (x shift per unit of
    height of its ink, rightwards) and shape (its ink scaled to ``SHAPE_SIZE``, blurred, of
    unit norm)."""

    chroma: tuple[float, float]
    slant: float
    shape: np.ndarray = field(repr=False, compare=False)


def board_paper(pixels: np.ndarray) -> tuple[float, float]:
    """The Lab a*, b* of the board's paper (BGR ``pixels``; grey boards have none): the
    median of the board, which is mostly paper, so the print, its lines and fills over less
    than half of it move it little."""
    if pixels.ndim != 3:
        return (0.0, 0.0)
    lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB)
    return (float(np.median(lab[..., 1])), float(np.median(lab[..., 2])))


def glyph_look(pixels: np.ndarray, ink: CellInk, paper: tuple[float, float]) -> GlyphLook | None:
    """The look of a cell's main glyph on the board ``pixels`` (BGR or grey) whose paper's
    a*, b* is ``paper`` (``board_paper``), or None when the glyph is too small to tell."""
    glyph = ink.glyph
    if glyph is None or glyph.shape[0] < SMALLEST_GLYPH or not glyph.any():
        return None
    return GlyphLook(
        _chroma(pixels, ink.main.box, glyph, paper),
        _slant(glyph),
        _shape(glyph),
    )


def shape_distance(first: GlyphLook, second: GlyphLook) -> float:
    """How unlike two glyphs' shapes are: 0 alike, 1 with no ink in common."""
    return float(1.0 - np.sum(first.shape * second.shape))


def _chroma(
    pixels: np.ndarray,
    box: tuple[int, int, int, int],
    glyph: np.ndarray,
    paper: tuple[float, float],
) -> tuple[float, float]:
    if pixels.ndim != 3:
        return (0.0, 0.0)
    x, y, w, h = box
    lab = cv2.cvtColor(pixels[y : y + h, x : x + w], cv2.COLOR_BGR2LAB).astype(np.float32)
    strokes = lab[glyph > 0]
    if len(strokes) == 0:
        return (0.0, 0.0)
    # The darker half of the stroke: its edges are blurred into the paper.
    core = strokes[strokes[:, 0] <= np.median(strokes[:, 0])]
    ink_ab = np.median(core[:, 1:], axis=0)
    return (float(ink_ab[0] - paper[0]), float(ink_ab[1] - paper[1]))


def _slant(glyph: np.ndarray) -> float:
    ys, xs = np.nonzero(glyph)
    spread = float(np.var(ys))
    if spread <= 0:
        return 0.0
    # Rightward lean: x grows as y falls (image rows run down).
    return -float(np.mean((xs - xs.mean()) * (ys - ys.mean()))) / spread


def _shape(glyph: np.ndarray) -> np.ndarray:
    h, w = glyph.shape
    scale = SHAPE_SIZE / h
    width = max(1, min(SHAPE_SIZE, int(round(w * scale))))
    scaled = cv2.resize(glyph.astype(np.float32), (width, SHAPE_SIZE), interpolation=cv2.INTER_AREA)
    canvas = np.zeros((SHAPE_SIZE, SHAPE_SIZE), np.float32)
    left = (SHAPE_SIZE - width) // 2
    canvas[:, left : left + width] = scaled
    canvas = cv2.GaussianBlur(canvas, (0, 0), SHAPE_BLUR * SHAPE_SIZE)
    norm = float(np.linalg.norm(canvas))
    return canvas / norm if norm > 0 else canvas
