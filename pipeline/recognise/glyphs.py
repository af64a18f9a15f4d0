"""The crop of a given cell that holds all of its glyph, even when the glyph spills out.

Most books print a digit well inside its cell, and the cell's interior (lines trimmed) is
the best crop to read. Some print digits as large as, or larger than, their cells (large-print
books): the interior then cuts the glyph, and a 7 without its bar reads as 1, a 4 without its
arm as 2. When the glyph's ink reaches the interior's edge, the cell is looked at with half a
cell around it, the grid lines there are painted over with paper, and the crop is the box of
the ink that crosses the cell's centre, wherever it ends.

A board whose digits are printed about twice their cells' size is read as large print
(``board_glyphs``): there a digit's own strokes are as long as lines and lines cut digits in
two, and ``pipeline.recognise.window_lines`` tells them apart.

Which way up a board is starts from its glyphs' shapes (``pipeline.recognise.orientation``),
so each glyph also carries the shapes of its ink blobs, measured where the glyph is: a glyph
that fills its interior is cut by it, and only the look around the cell sees its outline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from sudoku_batch.pipeline.board import Lattice
from sudoku_batch.pipeline.recognise.window_lines import crossing_ink, line_mask
from sudoku_batch.pipeline.vision.levels import grey_levels

# Share of a cell looked at around a cell whose glyph reaches its interior's edge.
SPILL_REACH = 0.5
# The glyph is the ink crossing this central share of the cell...
CENTRE_FRACTION = 0.5
# ...and the crop keeps this share of a cell of paper around it.
PADDING = 0.08
# A blob off the centre is a glyph when it is at least this share of the interior tall or wide.
MIN_GLYPH_SHARE = 0.3
# A glyph whose box's centre is this share of a cell or more from the cell's centre is set off
# it on purpose (a print style), not by blur or a lattice a pixel off...
OFF_CENTRE = 0.25
# ...when it is also smaller than this share of a cell (a digit printed at the usual size, and
# its stem alone, are read as before).
SMALL_GLYPH = 0.5
# The glyph is read whole only when at least this share of its ink lies outside the interior.
MIN_SPILL_SHARE = 0.05
# Ink blobs smaller than this share of a cell's interior are specks, not strokes of a digit.
SPECK_SHARE = 0.02


@dataclass(frozen=True)
class Glyph:
    """A given cell's crop to read, and log(height / width) of each of its glyph's ink blobs
    (each digit of a 10..16 is its own blob)."""

    crop: np.ndarray
    aspects: tuple[float, ...]

    def turned(self, quarter_turns: int) -> Glyph:
        """The glyph turned counter-clockwise by quarter turns."""
        sign = -1.0 if quarter_turns % 2 else 1.0
        return Glyph(np.rot90(self.crop, quarter_turns), tuple(sign * a for a in self.aspects))


def board_glyphs(
    gray: np.ndarray, lattice: Lattice, positions: Sequence[tuple[int, int]], trim: float
) -> list[Glyph]:
    """The glyph of each cell (row, col) of a grey board (``glyph_crop``). The board's digits
    are printed larger than their cells when the glyphs that spill out of their interiors are
    mostly taller than an interior: then those are looked at again as large print."""
    first = [_glyph_and_height(gray, lattice, r, c, trim, False) for r, c in positions]
    heights = [height for _, height in first if height]
    # Digits twice their cells' size: a median 0.88-0.93 of a cell (bench.styles oversized
    # and oversized-bold); real photos warped with their corners, even 0.15 cell off, 0.67 at
    # most (bench.ocr_calibration); the interior is 0.8.
    if not heights or np.median(heights) <= 1 - 2 * trim:
        return [glyph for glyph, _ in first]
    return [
        glyph if height is None else _glyph_and_height(gray, lattice, r, c, trim, True)[0]
        for (glyph, height), (r, c) in zip(first, positions, strict=True)
    ]


def glyph_crop(
    gray: np.ndarray, lattice: Lattice, row: int, col: int, trim: float, large_print: bool = False
) -> Glyph:
    """The crop to read for cell (row, col) of a grey board: its interior trimmed by
    ``trim`` of the cell on each side, or the whole glyph when that spills past it.
    ``large_print``: the board's digits are printed larger than their cells."""
    return _glyph_and_height(gray, lattice, row, col, trim, large_print)[0]


def _glyph_and_height(
    gray: np.ndarray, lattice: Lattice, row: int, col: int, trim: float, large_print: bool
) -> tuple[Glyph, float | None]:
    """``glyph_crop``'s glyph, and, when it reaches the interior's edge, the height of its
    ink (cells; 0 when no glyph was found around the cell)."""
    rows, cols = lattice.row_lines, lattice.col_lines
    top, bottom, left, right = rows[row], rows[row + 1], cols[col], cols[col + 1]
    interior = _crop(gray, top, bottom, left, right, trim)
    if interior.size == 0 or not _reaches_edge(interior):
        return Glyph(interior, blob_aspects(interior)), None
    height, width = bottom - top, right - left
    y0 = max(0, int(round(top - SPILL_REACH * height)))
    y1 = min(gray.shape[0], int(round(bottom + SPILL_REACH * height)))
    x0 = max(0, int(round(left - SPILL_REACH * width)))
    x1 = min(gray.shape[1], int(round(right + SPILL_REACH * width)))
    window = gray[y0:y1, x0:x1]
    paper = grey_levels(window, (90,))[0]
    _, ink = cv2.threshold(window, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    cell = min(height, width)
    # Printed larger than its cells, a glyph's own strokes may be as long as lines, and the
    # lines cut it (pipeline.recognise.window_lines). A glyph of the usual size reaches the
    # interior's edge only where the lattice is off the printed lines: every long stroke is
    # a line there.
    lattice_lines = ([r - y0 for r in rows], [c - x0 for c in cols], trim)
    lines = line_mask(ink, cell, lattice_lines if large_print else None)
    glyph = cv2.bitwise_and(ink, cv2.bitwise_not(lines))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(glyph, connectivity=8)
    cy0 = max(int(round(top + (1 - CENTRE_FRACTION) / 2 * height)) - y0, 0)
    cy1 = int(round(bottom - (1 - CENTRE_FRACTION) / 2 * height)) - y0
    cx0 = max(int(round(left + (1 - CENTRE_FRACTION) / 2 * width)) - x0, 0)
    cx1 = int(round(right - (1 - CENTRE_FRACTION) / 2 * width)) - x0
    iy0, iy1 = interior_box(top, bottom, trim, y0)
    ix0, ix1 = interior_box(left, right, trim, x0)
    # The ink reaching the interior's edge is seen whole here, where the interior cut it.
    aspects = _window_aspects(labels, stats, iy0, iy1, ix0, ix1)
    crossing = set(np.unique(labels[cy0:cy1, cx0:cx1]).tolist()) - {0}
    centre_inked = bool(np.any(ink[cy0:cy1, cx0:cx1]))
    if not crossing and not centre_inked:
        # A digit set against a line or in a corner: the ink in the interior. (Print in the
        # centre that is all painted out is a stroke as long as a line: the interior holds it.)
        crossing = set(np.unique(labels[iy0:iy1, ix0:ix1]).tolist()) - {0}
    if not crossing:
        return Glyph(interior, aspects), 0.0
    if large_print:
        others = _other_centres(lattice, row, col, (y0, y1, x0, x1))
        in_glyph = _whole_glyph(labels, crossing, (ink, lines), cell, others)
    else:
        in_glyph = np.isin(labels, list(crossing))
    cleaned = np.where((lines > 0) & ~in_glyph, np.uint8(paper), window)
    ys, xs = np.nonzero(in_glyph)
    boxes = np.array([[xs.min(), ys.min(), xs.max() + 1 - xs.min(), ys.max() + 1 - ys.min()]])
    glyph_height = float(boxes[0, 3] / height)
    # A glyph that only grazes the interior's edge (a photo's blur, a lattice a pixel off) is
    # read best from the interior; one with a good part of its ink outside is cut by it. A
    # glyph set off the centre on purpose is small, and any of it cut off can change it (a 6
    # without its left side reads 5).
    inside = int(np.count_nonzero(in_glyph[iy0:iy1, ix0:ix1]))
    off_centre = _off_centre(boxes, ((top + bottom) / 2 - y0, (left + right) / 2 - x0), height)
    min_spill = 0.0 if off_centre else MIN_SPILL_SHARE
    if inside >= (1 - min_spill) * np.count_nonzero(in_glyph):
        return Glyph(interior, aspects), glyph_height
    pad_y, pad_x = int(round(PADDING * height)), int(round(PADDING * width))
    # The interior, grown to take in the glyph where it spills.
    gy0 = max(0, min(iy0, int(boxes[:, 1].min()) - pad_y))
    gx0 = max(0, min(ix0, int(boxes[:, 0].min()) - pad_x))
    gy1 = min(window.shape[0], max(iy1, int((boxes[:, 1] + boxes[:, 3]).max()) + pad_y))
    gx1 = min(window.shape[1], max(ix1, int((boxes[:, 0] + boxes[:, 2]).max()) + pad_x))
    return Glyph(cleaned[gy0:gy1, gx0:gx1], aspects), glyph_height


def _whole_glyph(
    labels: np.ndarray,
    crossing: set[int],
    masks: tuple[np.ndarray, np.ndarray],
    cell: float,
    others: np.ndarray,
) -> np.ndarray:
    """The glyph of a cell's window (its blobs ``crossing``, of the window's blobs off the
    lines ``labels``) with the ink the lines hid given back (``masks``: the window's ink, its
    lines), and the blobs that ink joins to it, but for blobs that reach into another cell's
    centre: a neighbour's glyph touching it across a line."""
    ink, lines = masks
    glyph = (labels > 0).astype(np.uint8) * 255
    plain = np.isin(labels, list(crossing))
    whole = cv2.bitwise_or(glyph, crossing_ink(glyph, ink, lines, cell))
    _, joined = cv2.connectedComponents(whole, connectivity=8)
    grown = np.isin(joined, np.unique(joined[plain]))
    reached = set(np.unique(labels[grown]).tolist()) - {0}
    neighbours = set(np.unique(labels[others]).tolist())
    kept = np.isin(labels, list(crossing | (reached - neighbours))).astype(np.uint8) * 255
    whole = cv2.bitwise_or(kept, crossing_ink(kept, ink, lines, cell))
    _, joined = cv2.connectedComponents(whole, connectivity=8)
    return np.isin(joined, np.unique(joined[plain]))


def blob_aspects(crop: np.ndarray) -> tuple[float, ...]:
    """log(height / width) of each ink blob of a dark-on-light crop that is clear of its edges
    (blobs touching an edge are left-over grid line)."""
    gray = crop if crop.dtype == np.uint8 else np.clip(crop, 0, 255).astype(np.uint8)
    _, ink = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    return _clear_aspects(stats[1:count], ink.shape, SPECK_SHARE * ink.size)


def _window_aspects(
    labels: np.ndarray, stats: np.ndarray, iy0: int, iy1: int, ix0: int, ix1: int
) -> tuple[float, ...]:
    """log(height / width) of the glyph blobs of a cell's window (lines painted out) that
    reach into its interior (rows iy0..iy1, columns ix0..ix1) and are clear of the window's
    edges."""
    within = np.unique(labels[iy0:iy1, ix0:ix1])
    speck = SPECK_SHARE * (iy1 - iy0) * (ix1 - ix0)
    return _clear_aspects(stats[within[within > 0]], labels.shape, speck)


def _clear_aspects(stats: np.ndarray, shape: tuple[int, ...], speck: float) -> tuple[float, ...]:
    rows, cols = shape
    return tuple(
        float(np.log(height / width))
        for x, y, width, height, area in stats
        if x > 0 and y > 0 and x + width < cols and y + height < rows and area >= speck
    )


def _off_centre(boxes: np.ndarray, centre: tuple[float, float], cell: float) -> bool:
    """Whether the box around glyph boxes (x, y, w, h) is that of a small glyph set off a
    cell's centre (y, x)."""
    x0, y0 = boxes[:, 0].min(), boxes[:, 1].min()
    x1, y1 = (boxes[:, 0] + boxes[:, 2]).max(), (boxes[:, 1] + boxes[:, 3]).max()
    offset = max(abs((y0 + y1) / 2 - centre[0]), abs((x0 + x1) / 2 - centre[1]))
    return bool(offset > OFF_CENTRE * cell and y1 - y0 < SMALL_GLYPH * cell)


def interior_box(start: float, end: float, trim: float, origin: int = 0) -> tuple[int, int]:
    """A cell's interior along one axis, ``trim`` of the cell off each end, from ``origin``."""
    inset = trim * (end - start)
    lo = max(0, round(start + inset)) - origin
    return lo, max(round(end - inset) - origin, lo + 1)


def _crop(
    gray: np.ndarray, top: float, bottom: float, left: float, right: float, trim: float
) -> np.ndarray:
    y0, y1 = interior_box(top, bottom, trim)
    x0, x1 = interior_box(left, right, trim)
    return gray[y0:y1, x0:x1]


def _reaches_edge(interior: np.ndarray) -> bool:
    """Whether the dark print of a glyph runs into one of an interior's edges: print crossing
    its centre, or a glyph-tall blob off the centre (a digit set against a line or in a
    corner). Ink that only lines an edge, from one end to the other, is a remnant of the grid
    line, not part of the glyph."""
    _, ink = cv2.threshold(interior, 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    h, w = ink.shape
    dy, dx = int(h * (1 - CENTRE_FRACTION) / 2), int(w * (1 - CENTRE_FRACTION) / 2)
    # Blobs touching one of its edges (among them a glyph as large as the interior, or one
    # joined to its lines) count when they cross the centre. (Looked for among the blobs'
    # boxes first: most cells have none, and need no look at the centre's labels.)
    x, y, bw, bh = (stats[1:count, i] for i in range(4))
    at_edge = (x == 0) | (y == 0) | (x + bw == w) | (y + bh == h)
    if (
        at_edge.any()
        and np.isin(labels[dy : h - dy, dx : w - dx], np.flatnonzero(at_edge) + 1).any()
    ):
        return True
    # A small digit's thin strokes break apart at the threshold: joined up, they are one blob.
    # Joined, only ink within a pixel of an edge can reach it.
    if not (ink[:2].any() or ink[-2:].any() or ink[:, :2].any() or ink[:, -2:].any()):
        return False
    joined = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    for x, y, bw, bh, _ in stats[1:count]:
        on_edge = x == 0 or y == 0 or x + bw == w or y + bh == h
        if on_edge and bw < w and bh < h and max(bh / h, bw / w) >= MIN_GLYPH_SHARE:
            return True
    return False


def _other_centres(
    lattice: Lattice, row: int, col: int, window: tuple[int, int, int, int]
) -> np.ndarray:
    """Where in a cell's window (y0, y1, x0, x1 of the board) the central regions of the
    other cells lie: every digit crosses its own."""
    y0, y1, x0, x1 = window
    inside = np.zeros((y1 - y0, x1 - x0), bool)
    n = len(lattice.row_lines) - 1
    for r in range(max(row - 1, 0), min(row + 2, n)):
        for c in range(max(col - 1, 0), min(col + 2, n)):
            if (r, c) == (row, col):
                continue
            ys = _central(lattice.row_lines[r], lattice.row_lines[r + 1], y0)
            xs = _central(lattice.col_lines[c], lattice.col_lines[c + 1], x0)
            inside[max(ys[0], 0) : max(ys[1], 0), max(xs[0], 0) : max(xs[1], 0)] = True
    return inside


def _central(start: float, end: float, origin: int) -> tuple[int, int]:
    """A cell's central region along one axis, from ``origin``."""
    margin = (1 - CENTRE_FRACTION) / 2 * (end - start)
    return int(round(start + margin)) - origin, int(round(end - margin)) - origin
