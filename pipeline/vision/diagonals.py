"""Whether a board marks its two diagonals (a diagonal or X Sudoku): by lines drawn corner to
corner, or by shading the cells on them.

A drawn diagonal crosses each of its cells corner to corner, so along that path the cell is
darker than its paper almost everywhere (a digit crosses it only in part), and darker than along
paths beside it. Shaded diagonal cells share a fill that their neighbours off the diagonals do
not have.
"""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.board import Lattice

# The path through a cell is followed from this share of the way in to the same share short of
# its far corner (clear of the grid lines), at this many points.
PATH_INSET = 0.2
PATH_POINTS = 24
# The paths beside the diagonal run this share of a cell off it, on both sides.
BESIDE = 0.15
# A cell's paper is the brightest within this share of a cell (wider than a drawn line).
PAPER_REACH = 0.2
# A drawn line is darker than its paper by at least this share along most of its path (the
# median), and than the paths beside it by this factor.
LINE_DARKNESS = 0.06
LINE_CONTRAST = 2.5
# Shaded cells differ from their neighbours off the diagonals by at least this share of the
# paper's brightness, and from their nearest neighbour on the diagonal by at most SHADE_ALIKE
# of that difference.
SHADE_CONTRAST = 0.06
SHADE_ALIKE = 0.33
# A drawn diagonal is painted out this wide (share of a cell): a blurred line, and a rectified
# board's line a pixel or two off its cell corners.
ERASE_WIDTH = 0.06
# Print under a drawn diagonal that is darker than this share of the line's grey is a digit's.
KEPT_DARKER = 0.7
# Share of the diagonals' cells that must show the mark.
MARKED_SHARE = 0.8


def has_diagonals(pixels: np.ndarray, lattice: Lattice) -> bool:
    """Whether both diagonals of an upright rectified board are marked, by lines or shading."""
    cells = _diagonal_cells(lattice.shape.size)
    if drawn_diagonals(pixels, lattice):
        return True
    return _shaded_cells(pixels, lattice, cells) >= MARKED_SHARE * len(cells)


def drawn_diagonals(pixels: np.ndarray, lattice: Lattice) -> bool:
    """Whether lines run corner to corner along both diagonals of a rectified board."""
    cells = _diagonal_cells(lattice.shape.size)
    gray = pixels if pixels.ndim == 2 else cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    return _drawn_cells(gray, lattice, cells) >= MARKED_SHARE * len(cells)


def without_drawn_diagonals(pixels: np.ndarray, lattice: Lattice) -> np.ndarray:
    """The board with its drawn diagonal lines painted over in the paper (or fill) beside
    them, so that sorting cells does not take a line crossing an empty cell for a digit; the
    board as it is when it has none."""
    if not drawn_diagonals(pixels, lattice):
        return pixels
    rows, cols = lattice.row_lines, lattice.col_lines
    n = lattice.shape.size
    cell = float(np.median(np.diff(rows)))
    reach = max(3, int(2 * PAPER_REACH * cell) | 1)
    paper = cv2.dilate(pixels, np.ones((reach, reach), np.uint8))
    mask = np.zeros(pixels.shape[:2], np.uint8)
    width = max(3, int(round(ERASE_WIDTH * cell)))
    for i in range(n):
        for start_x, end_x in ((cols[i], cols[i + 1]), (cols[n - i], cols[n - 1 - i])):
            start = (int(round(start_x)), int(round(rows[i])))
            end = (int(round(end_x)), int(round(rows[i + 1])))
            cv2.line(mask, start, end, 255, width)
    # Print darker than the line itself (a digit in black across a grey line) is kept.
    gray = pixels if pixels.ndim == 2 else cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    line_grey = float(np.median(gray[mask > 0]))
    paint = (mask > 0) & (gray >= KEPT_DARKER * line_grey)
    erased = pixels.copy()
    erased[paint] = paper[paint]
    return erased


def _diagonal_cells(n: int) -> list[tuple[int, int, bool]]:
    """Each cell on the two diagonals, with whether it is on the anti-diagonal (the centre of
    an odd board is counted once, on the main one)."""
    main = [(i, i, False) for i in range(n)]
    anti = [(i, n - 1 - i, True) for i in range(n) if i != n - 1 - i]
    return main + anti


def _drawn_cells(gray: np.ndarray, lattice: Lattice, cells: list[tuple[int, int, bool]]) -> int:
    """How many of ``cells`` a line crosses corner to corner."""
    rows, cols = lattice.row_lines, lattice.col_lines
    cell = float(np.median(np.diff(rows)))
    reach = max(3, int(2 * PAPER_REACH * cell) | 1)
    paper = cv2.dilate(gray, np.ones((reach, reach), np.uint8)).astype(np.float32)
    darkness = 1.0 - gray.astype(np.float32) / np.maximum(paper, 1.0)
    t = np.linspace(PATH_INSET, 1 - PATH_INSET, PATH_POINTS, dtype=np.float32)
    count = 0
    for r, c, anti in cells:
        x0, x1 = (cols[c + 1], cols[c]) if anti else (cols[c], cols[c + 1])
        y0, y1 = rows[r], rows[r + 1]
        xs, ys = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        # Unit normal to the path, for the paths beside it.
        dx, dy = x1 - x0, y1 - y0
        length = float(np.hypot(dx, dy))
        nx, ny = -dy / length * BESIDE * cell, dx / length * BESIDE * cell
        along = _median_along(darkness, xs, ys)
        beside = max(
            _median_along(darkness, xs + nx, ys + ny), _median_along(darkness, xs - nx, ys - ny)
        )
        if along >= LINE_DARKNESS and along >= LINE_CONTRAST * beside:
            count += 1
    return count


def _median_along(image: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> float:
    sampled = cv2.remap(
        image,
        xs.reshape(1, -1).astype(np.float32),
        ys.reshape(1, -1).astype(np.float32),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return float(np.median(sampled))


def _shaded_cells(pixels: np.ndarray, lattice: Lattice, cells: list[tuple[int, int, bool]]) -> int:
    """How many of ``cells`` share a fill with their diagonal neighbours that sets them apart
    from their neighbours in the same row off the diagonals."""
    n = lattice.shape.size
    colour = cell_colours(pixels, lattice)
    on = {(r, c) for r, c, _ in cells} | {(r, c) for r in range(n) for c in (r, n - 1 - r)}
    count = 0
    for r, c, anti in cells:
        here = colour[r, c]
        brightness = max(float(here.max()), 1.0)
        off = [(r, x) for x in (c - 1, c + 1) if 0 <= x < n and (r, x) not in on]
        step = -1 if anti else 1
        along = [(r + d, c + d * step) for d in (-1, 1) if 0 <= r + d < n and 0 <= c + d * step < n]
        if not off or not along:
            continue
        apart = min(np.linalg.norm(here - colour[y, x]) for y, x in off) / brightness
        alike = min(np.linalg.norm(here - colour[y, x]) for y, x in along) / brightness
        if apart >= SHADE_CONTRAST and alike <= SHADE_ALIKE * apart:
            count += 1
    return count


def cell_colours(pixels: np.ndarray, lattice: Lattice) -> np.ndarray:
    """Each cell's background colour (per channel, the 75th percentile of its interior: the
    paper or fill, not the print)."""
    rows, cols = lattice.row_lines, lattice.col_lines
    n = lattice.shape.size
    image = pixels if pixels.ndim == 3 else pixels[..., None]
    colours = np.zeros((n, n, image.shape[2]), np.float32)
    for r in range(n):
        for c in range(n):
            h, w = rows[r + 1] - rows[r], cols[c + 1] - cols[c]
            y0, y1 = int(rows[r] + 0.15 * h), int(rows[r + 1] - 0.15 * h)
            x0, x1 = int(cols[c] + 0.15 * w), int(cols[c + 1] - 0.15 * w)
            interior = image[y0:y1, x0:x1].reshape(-1, image.shape[2])
            colours[r, c] = np.percentile(interior, 75, axis=0)
    return colours
