"""How a cell's main glyph looks beyond its size: the colour of its ink, its slant and its
shape, each as it can be compared with the board's other glyphs
(``pipeline.recognise.ink_kinds`` judges them against the board's own print).

Colour is the ink's chroma less what the paper right around it would show at the ink's
lightness: a photo's colour cast tints paper and ink alike, in proportion to how much light
they send back, so it drops out; and black print on a coloured fill (a diagonal's or a
region's tint), which lets little of the fill through, stays black rather than taking the
fill's opposite colour.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from sudoku_batch.pipeline.recognise.ink_marks import CellInk

# Paper around a glyph's box that its colour is compared with, in pixels.
PAPER_MARGIN = 3
# OpenCV's 8-bit Lab: a* and b* are stored less 128.
LAB_OFFSET = np.array([0.0, 128.0, 128.0], dtype=np.float32)
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
    unit norm); and its paper's colour right around it (8-bit Lab, a* and b* less 128)."""

    chroma: tuple[float, float]
    slant: float
    shape: np.ndarray = field(repr=False, compare=False)
    paper: tuple[float, float, float] = (255.0, 0.0, 0.0)


def glyph_look(pixels: np.ndarray, ink: CellInk) -> GlyphLook | None:
    """The look of a cell's main glyph on the board ``pixels`` (BGR or grey), or None when it
    is too small to tell."""
    glyph = ink.glyph
    if glyph is None or glyph.shape[0] < SMALLEST_GLYPH or not glyph.any():
        return None
    chroma, paper = _colours(pixels, ink.main.box, glyph)
    return GlyphLook(chroma, _slant(glyph), _shape(glyph), paper)


def shape_distance(first: GlyphLook, second: GlyphLook) -> float:
    """How unlike two glyphs' shapes are: 0 alike, 1 with no ink in common."""
    return float(1.0 - np.sum(first.shape * second.shape))


def paper_distance(first: GlyphLook, second: GlyphLook) -> float:
    """How far apart two glyphs' papers are in colour (8-bit Lab, Euclidean)."""
    return float(np.linalg.norm(np.subtract(first.paper, second.paper)))


def _colours(pixels: np.ndarray, box: tuple[int, int, int, int], glyph: np.ndarray) -> tuple:
    """A glyph's ink chroma less what its paper shows at the ink's lightness, and its paper's
    Lab."""
    if pixels.ndim != 3:  # grey: no chroma, the paper's lightness alone
        pixels = cv2.cvtColor(pixels, cv2.COLOR_GRAY2BGR)
    x, y, w, h = box
    m = PAPER_MARGIN
    y0, x0 = max(y - m, 0), max(x - m, 0)
    crop = pixels[y0 : y + h + m, x0 : x + w + m]
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    inked = np.zeros(crop.shape[:2], dtype=np.uint8)
    inked[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = glyph
    near = cv2.dilate(inked, np.ones((2 * m + 1, 2 * m + 1), np.uint8)) > 0
    paper = lab[~near]
    strokes = lab[inked > 0]
    if len(paper) == 0 or len(strokes) == 0:
        return (0.0, 0.0), (255.0, 0.0, 0.0)
    # The darker half of the stroke: its edges are blurred into the paper.
    core = strokes[strokes[:, 0] <= np.median(strokes[:, 0])]
    ink = np.median(core, axis=0) - LAB_OFFSET
    paper_lab = np.median(paper, axis=0) - LAB_OFFSET
    shown = paper_lab[1:] * min(ink[0] / max(paper_lab[0], 1.0), 1.0)
    chroma = (float(ink[1] - shown[0]), float(ink[2] - shown[1]))
    return chroma, (float(paper_lab[0]), float(paper_lab[1]), float(paper_lab[2]))


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
