"""The grid lines in the window looked at around a cell whose glyph spills out of it, and the
glyph ink painted over with them.

A line is a straight stroke longer than a digit, but a digit twice its cell's size has strokes
as long, once joined to a line at one end (a 4's stem standing on a line, its arm meeting the
border). Such a stroke ends inside the window, and lies off the lattice's lines by more than
the share of a cell that a cell's interior is trimmed by to leave its lines out; a grid line
crosses the window (to the board's edge where the window is cut there) or lies on one of the
lattice's lines. Either alone was not enough: a faint line in a blurred photo breaks up (a
piece of it ends inside the window), and the lattice of a board warped by its corners alone
is off its printed lines.

Painting the lines over cuts such a digit where it crosses them: a 7 whose bar is printed
above its cell's top line and its stem below falls in two, and so does a 2 whose base lies
below the bottom line. The ink under a line where the glyph meets it from both sides is given
back to the glyph (``crossing_ink``).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

# Strokes longer than this (cells) in the window may be grid lines: a digit is at most a cell.
LINE_CELLS = 1.2
# A stroke ending this share of a cell or more short of the window's edge ends inside it. (A
# digit twice its cell's size ends 0.36 of a cell or more short of it, bench.styles oversized.)
LINE_GAP = 0.25
# A stroke crossing a line meets it from both sides within this share of a cell (wider than
# a thick box line, and a pixel each side that the line's mask is grown by).
CROSSING_REACH = 0.2


def line_mask(
    ink: np.ndarray,
    cell: float,
    lattice: tuple[Sequence[float], Sequence[float], float] | None = None,
) -> np.ndarray:
    """A window's grid lines, a pixel wider. ``ink`` is the window's ink and ``cell`` a cell's
    size in pixels. Without ``lattice`` every long stroke is a line; with it (the lattice's
    row and column lines in the window's coordinates, and the share of a cell trimmed off a
    cell's interior to leave its lines out), the strokes of a glyph larger than its cell are
    told from the lines by the module docstring's rule. (The stems and arms of digits twice
    their cell's size lie 0.13-0.5 of a cell off the lattice's lines, bench.styles
    oversized.)"""
    length = max(int(round(LINE_CELLS * cell)), 3)
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    if lattice is not None:
        row_lines, col_lines, trim = lattice
        across = _grid_lines(across, cell, trim, row_lines)
        down = _grid_lines(down.T, cell, trim, col_lines).T
    return cv2.dilate(cv2.bitwise_or(across, down), np.ones((3, 3), np.uint8))


def crossing_ink(glyph: np.ndarray, ink: np.ndarray, lines: np.ndarray, cell: float) -> np.ndarray:
    """The ink painted over with the lines (``lines``) where ink off them (``glyph``) meets a
    line from both sides: a stroke crossing it."""
    reach = max(3, int(round(CROSSING_REACH * cell)))
    # Outside the window is paper: a glyph meets a line at the board's edge from one side.
    joined = cv2.bitwise_or(
        _close(glyph, np.ones((reach, 1), np.uint8)), _close(glyph, np.ones((1, reach), np.uint8))
    )
    return cv2.bitwise_and(cv2.bitwise_and(ink, lines), joined)


def _close(mask: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """A mask closed with ``kernel``, as if paper lay all around it."""
    return cv2.morphologyEx(
        mask, cv2.MORPH_CLOSE, kernel, borderType=cv2.BORDER_CONSTANT, borderValue=0
    )


def _grid_lines(
    strokes: np.ndarray, cell: float, trim: float, positions: Sequence[float]
) -> np.ndarray:
    """Of a window's long horizontal strokes, the grid lines: all but those that end inside
    the window and lie more than ``trim`` of a cell off each of the lattice's lines
    (``positions``, rows of the window)."""
    gap = LINE_GAP * cell
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    width = strokes.shape[1]
    offset = trim * cell
    glyphs = [
        label
        for label, (x, y, w, h, _) in enumerate(stats[1:count], start=1)
        if (x >= gap or x + w <= width - gap)
        and not any(y - offset <= p <= y + h + offset for p in positions)
    ]
    return np.where((strokes > 0) & ~np.isin(labels, glyphs), np.uint8(255), np.uint8(0))
