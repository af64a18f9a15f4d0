"""The grid lines in the window looked at around a cell whose glyph spills out of it, and the
glyph ink painted over with them.

A line is a straight stroke longer than a digit, but a digit twice its cell's size has strokes
as long, once joined to a line at one end (a 4's stem standing on a line, its arm meeting the
border). So a grid line is also told by where it is: it crosses the whole window (to the
board's edge where the window is cut there) and lies where the lattice puts a line. A glyph's
stroke ends inside the window, or lies between the lattice's lines.

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
# A line broken by gaps up to this share of a cell (a worn or faint line) is still one line.
LINE_GAP = 0.25
# A grid line lies within this share of a cell of the lattice's line (the straightening moves
# a crossing further off than this to where its neighbours put it).
LINE_OFFSET = 0.15
# A stroke crossing a line meets it from both sides within this share of a cell (wider than
# a thick box line, and a pixel each side that the line's mask is grown by).
CROSSING_REACH = 0.2


def line_mask(
    ink: np.ndarray, cell: float, row_lines: Sequence[float], col_lines: Sequence[float]
) -> np.ndarray:
    """A window's grid lines, a pixel wider. ``ink`` is the window's ink, ``cell`` a cell's
    size in pixels, and ``row_lines`` and ``col_lines`` the lattice's lines in the window's
    coordinates."""
    length = max(int(round(LINE_CELLS * cell)), 3)
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    lines = cv2.bitwise_or(
        _grid_lines(across, cell, row_lines), _grid_lines(down.T, cell, col_lines).T
    )
    return cv2.dilate(lines, np.ones((3, 3), np.uint8))


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


def _grid_lines(strokes: np.ndarray, cell: float, positions: Sequence[float]) -> np.ndarray:
    """Of a window's long horizontal strokes, the grid lines (by the module docstring's rule).
    Gaps of up to LINE_GAP of a cell are bridged first."""
    gap = max(3, int(round(LINE_GAP * cell)))
    bridged = cv2.morphologyEx(strokes, cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(bridged, connectivity=8)
    width = strokes.shape[1]
    offset = LINE_OFFSET * cell
    found = [
        label
        for label, (x, y, w, h, _) in enumerate(stats[1:count], start=1)
        if x <= gap
        and x + w >= width - gap
        and any(y - offset <= p <= y + h + offset for p in positions)
    ]
    return np.where(np.isin(labels, found) & (strokes > 0), np.uint8(255), np.uint8(0))
