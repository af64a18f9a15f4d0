"""Measure the printed grid of a rectified board: its size N, its box shape and its lines.

The board image is fronto-parallel and its edges sit on the outer border of the grid. Grid
lines are long straight runs of ink, so opening the ink map with a long horizontal (vertical)
kernel keeps the horizontal (vertical) lines and drops digits. The row (column) sums of what is
left give a profile whose peaks are the lines. A size N fits when every one of its N-1 interior
lines has a peak near its equal-slice position; the largest size that fits wins, because a
12x12 grid also contains every line of a 6x6 and a 4x4 comb. The box shape comes from which
lines are thicker than the others; when none are, it is the size's conventional one and the
lattice says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from sudoku_batch.pipeline.board import Lattice
from sudoku_batch.pipeline.errors import LatticeNotFound
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.even_lines import Run, even_lines, line_middle, line_runs
from sudoku_batch.pipeline.vision.levels import grey_levels
from sudoku_batch.pipeline.vision.screen import descreened

# Sizes tried, largest first (see the module docstring for why largest first).
SIZES = (25, 16, 12, 9, 8, 6, 4)

# A cell must span at least this many board pixels for its lines to be told apart from ink.
MIN_RESOLVED_CELL_PX = 14
# Share of the board's width a row of line pixels must cover to count as a grid line. Printed
# lines run the full width; digit strokes surviving the opening cover a few percent at most.
LINE_COVERAGE = 0.45
# A single interior line may be weaker (a fold, glare, a shaded band crossing it) but not absent.
WEAK_LINE_COVERAGE = 0.2
# Lines are searched within this fraction of a cell around their equal-slice position, which
# absorbs the bending of a curled page without reaching the next line.
SEARCH_FRACTION = 0.4
# The middle of a cell, this far (share of a cell) either side, must be free of lines running
# most of the board (digits side by side, shading edges and solid cells cover less)...
MID_CELL_REACH = 0.1
MID_CELL_COVERAGE = 0.75
# ...in most rows (columns): a grid of smaller cells puts a line through the middle of every
# one, while a crease or fold of the paper can run through one or two like a line.
MID_CELL_SHARE = 0.5
# Lines cutting a cell are looked for this far (share of a cell) inside its own lines, clear of
# them however thick (``cell_parts``).
INTERIOR_INSET = 0.15
# Neighbouring interior lines must be this close (share of a cell) to one cell apart.
MAX_GAP_DEVIATION = 0.25
# A line's weight is summed within this share of a cell either side: all of a blurred thick
# line, none of the digits beside it.
THICKNESS_REACH = 0.3
# A pixel this much darker than the paper right around it (share of the board's contrast, and
# at least this many grey levels, above a scan's noise) is faint ink (see detect_lattice).
FAINT_LINE_SHARE = 0.08
FAINT_LINE_MIN_GREY = 12
# Faint ink also takes in the blurred halo of digits, whose long strokes in a grid of large
# cells can reach a fifth of a row: with it, every interior line must run most of the board,
# as printed hairlines do.
FAINT_WEAKEST_LINE = 0.75
# Gaps in a dashed or dotted line up to this share of a cell (1 mm of a 9x9 in a 9 cm grid)
# are bridged when the lines are looked for a third time: longer than a printed dash's or
# dot's gap, well short of the space between digits in neighbouring cells (wider, it joins
# them into rows as long as lines, beside the border of a filled 16x16).
DASH_GAP_CELLS = 0.12
# Box lines must be at least this much thicker than cell lines on average to be seen as such;
# a crossword or a plain table has uniform lines.
MIN_BOX_CONTRAST = 1.2


@dataclass(frozen=True)
class _Axis:
    """The line evidence along one axis: the coverage profile and the per-line thickness."""

    coverage: np.ndarray  # per row (col): share of the board width covered by line pixels
    thickness: np.ndarray  # per row (col): mean darkness of the line pixels in that row (col)


def detect_lattice(board_pixels: np.ndarray) -> Lattice:
    """The size, box shape and N+1 row/column line positions of a rectified board."""
    found = next(_fitting(board_pixels), None)
    if found is None:
        found = next(_fitting_descreened(board_pixels), None)
    if found is None:
        raise LatticeNotFound(
            "no evenly spaced grid lines of a 4x4 to 25x25 Sudoku were found on the board; "
            "the photo may be too blurred, cut off, or not a Sudoku"
        )
    return found


def fitting_lattices(board_pixels: np.ndarray) -> list[Lattice]:
    """Every lattice whose comb fits the board's lines, the one ``detect_lattice`` measures
    first: the sizes it could also have been measured as, for a board whose readings
    contradict its measured size."""
    fits: dict[int, Lattice] = {}
    for lattice in _fitting(board_pixels, every_size=True):
        fits.setdefault(lattice.shape.size, lattice)
    return list(fits.values())


def _fitting_descreened(board_pixels: np.ndarray) -> Iterator[Lattice]:
    """The lattices that fit a board printed through a halftone screen, once the screen is
    blurred away: under a coarse screen a thin line prints as a chain of dots, broken at every
    one, and a heavy tint's dots as ink; blurred over their spacing, the line is whole again
    and the tint flat. Nothing on a board with no screen."""
    gray = (
        board_pixels if board_pixels.ndim == 2 else cv2.cvtColor(board_pixels, cv2.COLOR_BGR2GRAY)
    )
    smooth = descreened(gray)
    if smooth is not None:
        yield from _fitting(smooth)


def _fitting(board_pixels: np.ndarray, every_size: bool = False) -> Iterator[Lattice]:
    """The lattices of the sizes whose combs fit the board's ink, largest first; then, unless
    ``every_size``, only those of larger sizes that fit with its faint ink too."""
    gray = (
        board_pixels if board_pixels.ndim == 2 else cv2.cvtColor(board_pixels, cv2.COLOR_BGR2GRAY)
    )
    ink = ink_mask(gray)
    darkness = _darkness(gray, min(gray.shape[:2]))
    first = _fits(gray, ink, darkness, SIZES)
    found = next(first, None)
    # Hairlines in light grey among many digits (a filled 16x16 whose boxes alone print
    # black) can fall below the ink threshold, and the grid then reads as its boxes. Larger
    # sizes are tried again with the faint lines too; only larger, so that a photo's creases
    # and paper grain cannot turn a grid into a smaller one.
    larger = tuple(n for n in SIZES if found is None or n > found.shape.size)
    if larger:
        faint = cv2.bitwise_or(ink, faint_ink(gray, darkness))
        # Measuring the faint ink's lines costs as much as the first pass; most boards (every
        # one without hairlines) are spared it by a bound on their coverage.
        sizes = _may_fit(faint, larger, FAINT_WEAKEST_LINE)
        fitted = list(_fits(gray, faint, darkness, sizes, FAINT_WEAKEST_LINE)) if sizes else []
        # Dashed or dotted cell lines are no long stroke at all until their gaps are bridged:
        # without, the grid reads as its boxes (lines all alike), or as nothing. A grid seen
        # with thicker box lines was seen whole.
        if fitted or (found is not None and found.box_lines):
            yield from fitted
        else:
            yield from _dashed_fits(gray, faint, darkness, larger)
    if found is not None:
        yield found
    if every_size:
        yield from first


def _fits(
    gray: np.ndarray,
    ink: np.ndarray,
    darkness: np.ndarray,
    sizes: tuple[int, ...],
    weakest: float = WEAK_LINE_COVERAGE,
    gap: int = 0,
) -> Iterator[Lattice]:
    """The lattices of those of ``sizes`` whose combs fit the ink's lines (each interior line
    covering at least ``weakest`` of the board, gaps of up to ``gap`` pixels in it bridged),
    in the order of ``sizes``."""
    side = min(gray.shape[:2])
    rows = _axis_evidence(ink, darkness, horizontal=True, gap=gap)
    cols = _axis_evidence(ink, darkness, horizontal=False, gap=gap)
    for n in sizes:
        if side / n < MIN_RESOLVED_CELL_PX:
            continue
        row_lines = _fit_lines(rows, n, gray.shape[0], weakest)
        col_lines = _fit_lines(cols, n, gray.shape[1], weakest)
        if row_lines is None or col_lines is None:
            continue
        shape = _box_shape(n, rows, cols, row_lines, col_lines)
        if shape is None:
            # Some books print box lines no thicker than cell lines (thin grids of small
            # cells). The caller decides whether such a grid is a Sudoku or a crossword.
            yield Lattice(GridShape.square(n), tuple(row_lines), tuple(col_lines), False)
        else:
            yield Lattice(shape, tuple(row_lines), tuple(col_lines))


def _dashed_fits(
    gray: np.ndarray, ink: np.ndarray, darkness: np.ndarray, sizes: tuple[int, ...]
) -> Iterator[Lattice]:
    """The lattices of those of ``sizes`` whose combs fit the ink's lines, gaps of up to
    DASH_GAP_CELLS of the size's cell in them bridged, every interior line running most of
    the board. The gap is the size's own, so each size bridged is measured on its own; most
    are spared it by the bound for the widest gap."""
    side = min(gray.shape[:2])

    def gap(n: int) -> int:
        return max(1, round(DASH_GAP_CELLS * side / n))

    bounded = _may_fit(ink, sizes, FAINT_WEAKEST_LINE, max(gap(n) for n in sizes))
    for n in bounded:
        if _may_fit(ink, (n,), FAINT_WEAKEST_LINE, gap(n)):
            yield from _fits(gray, ink, darkness, (n,), FAINT_WEAKEST_LINE, gap(n))


def _may_fit(
    ink: np.ndarray, sizes: tuple[int, ...], weakest: float, gap: int = 0
) -> tuple[int, ...]:
    """The sizes whose comb could fit ``ink`` with every interior line covering ``weakest``:
    an upper bound, since a line's coverage (``_axis_evidence``) counts the pixels of its
    strokes, a subset of the ink with gaps of up to ``gap`` bridged (so of the ink spread by
    ``gap`` along the line), spread by the same few rows."""
    side = min(ink.shape[:2])
    bounds = []
    for horizontal in (True, False):
        spread = (1 + gap, 5) if horizontal else (5, 1 + gap)
        wide = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_RECT, spread))
        width = ink.shape[1] if horizontal else ink.shape[0]
        bounds.append(_line_sums(wide, horizontal) / (255.0 * width))
    possible = []
    for n in sizes:
        if side / n < MIN_RESOLVED_CELL_PX:
            continue
        if all(_lines_reach(bound, n, weakest) for bound in bounds):
            possible.append(n)
    return tuple(possible)


def _lines_reach(coverage: np.ndarray, n: int, weakest: float) -> bool:
    """Whether every interior line's window (as ``_fit_lines`` searches it) reaches
    ``weakest`` somewhere."""
    extent = coverage.size
    cell = extent / n
    reach = SEARCH_FRACTION * cell
    for i in range(1, n):
        lo = max(0, int(round(i * cell - reach)))
        hi = min(extent, int(round(i * cell + reach)) + 1)
        if coverage[lo:hi].max() < weakest:
            return False
    return True


def ink_mask(gray: np.ndarray) -> np.ndarray:
    """Dark print on lighter paper (255 = ink), robust to uneven light and shaded cells."""
    side = min(gray.shape[:2])
    # A window about a ninth of the board is wider than any line (so thick lines stay solid)
    # and narrow enough to follow a shadow across the page.
    block = max(15, (side // 9) | 1)
    return cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, ink_offset(gray)
    )


def ink_offset(gray: np.ndarray) -> float:
    """How much darker than what is around it a pixel must be to be ink: in step with the
    image's contrast, so that paper grain in a flat, dim photo does not turn into ink."""
    low, high = grey_levels(gray, (5, 95))
    return max(3.0, 0.05 * (high - low))


def faint_ink(gray: np.ndarray, darkness: np.ndarray) -> np.ndarray:
    """Print darker than the paper right around it (255), however dark the mean around it:
    among many digits the ink mask's window is dark, and a light grey hairline, fainter still
    once a 300 dpi page is shrunk, is not darker than that mean."""
    low, high = grey_levels(gray, (5, 95))
    threshold = max(FAINT_LINE_MIN_GREY, FAINT_LINE_SHARE * (high - low))
    return cv2.compare(darkness, threshold, cv2.CMP_GE)


def _darkness(gray: np.ndarray, side: int) -> np.ndarray:
    """How much darker each pixel is than the paper around it (0 on paper)."""
    # The paper level is the brightest value within a window wider than the thickest line.
    reach = max(5, side // 30) | 1
    paper = cv2.dilate(gray, cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))
    return cv2.subtract(paper, gray)


def line_strokes(ink: np.ndarray, horizontal: bool, gap: int = 0) -> np.ndarray:
    """The long horizontal (or vertical) strokes of a board's ink map: its grid lines; with
    ``gap``, a dashed line's gaps of up to that many pixels are bridged first."""
    # The kernel is shorter than a cell of the largest grid (so lines broken at every crossing
    # by blur still survive) but longer than the strokes of its digits.
    length = max(9, min(ink.shape[:2]) // 25)
    kernel = (length, 1) if horizontal else (1, length)
    if gap:
        bridge = (gap + 1, 1) if horizontal else (1, gap + 1)
        ink = cv2.morphologyEx(
            ink, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, bridge)
        )
    return cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, kernel))


def _axis_evidence(ink: np.ndarray, darkness: np.ndarray, horizontal: bool, gap: int = 0) -> _Axis:
    lines = line_strokes(ink, horizontal, gap)
    # Tolerate a line that wavers by a pixel or two across the board (curled paper).
    spread = (1, 5) if horizontal else (5, 1)
    wavy = cv2.dilate(lines, cv2.getStructuringElement(cv2.MORPH_RECT, spread))
    width = ink.shape[1] if horizontal else ink.shape[0]
    # Thickness is the darkness integrated over the line's pixels: blur spreads a line but
    # keeps its integral, so a box line stays heavier than a cell line in a blurred photo.
    # (The strokes are 0 or 255, so a bitwise and keeps the darkness on them.)
    on_lines = cv2.bitwise_and(darkness, wavy)
    return _Axis(
        coverage=_line_sums(wavy, horizontal) / (255.0 * width),
        thickness=_line_sums(on_lines, horizontal) / width,
    )


def _line_sums(image: np.ndarray, horizontal: bool) -> np.ndarray:
    """Each row's (or column's) sum of a uint8 image, exact in float64: OpenCV's reduction,
    several times quicker than numpy's sum along an axis."""
    dim = 1 if horizontal else 0
    return cv2.reduce(image, dim, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel().astype(np.float64)


def _fit_lines(
    axis: _Axis, n: int, extent: int, weakest: float = WEAK_LINE_COVERAGE
) -> list[float] | None:
    """N+1 line positions snapped to the profile, or None when a comb of N lines does not fit:
    an interior line missing or faint, lines unevenly spaced, or a line through the cells."""
    cell = extent / n
    reach = SEARCH_FRACTION * cell
    found: list[list[Run]] = []
    peaks: list[float] = []
    for i in range(n + 1):
        expected = i * cell
        lo = max(0, int(round(expected - reach)))
        hi = min(extent, int(round(expected + reach)) + 1)
        peak = float(axis.coverage[lo:hi].max())
        if 0 < i < n:
            if peak < weakest:
                return None
            peaks.append(peak)
        # The rows that reach half the peak: the printed line (or lines, see even_lines).
        found.append(line_runs(axis.coverage, lo, hi) if peak >= WEAK_LINE_COVERAGE else [])
    if float(np.mean(peaks)) < LINE_COVERAGE:
        return None

    def placed(lines: list[float | None]) -> list[float]:
        # An outer border without a line may be clipped by a corner estimate a pixel inside it.
        return [
            float(np.clip(i * cell, 0, extent)) if x is None else x for i, x in enumerate(lines)
        ]

    # The comb is judged on the middle of each tooth's rows, whatever lines they make:
    # choosing among them by the spacing of the others would even out a comb of the wrong size.
    middles = placed([line_middle(runs) for runs in found])
    # A comb of the wrong size snaps its teeth to the edges of its windows, onto the lines of
    # the true grid, and so spaces them unevenly; a printed grid's spacing drifts only slowly.
    interior_gaps = np.diff(middles[1:-1])
    if interior_gaps.size and np.abs(interior_gaps - cell).max() > MAX_GAP_DEVIATION * cell:
        return None
    # Lines may not run through the middle of the cells: that is a grid of smaller cells read
    # with every other line (on a skewed outline, where the right comb did not fit).
    crossed = 0
    for top, bottom in zip(middles[:-1], middles[1:], strict=True):
        middle = (top + bottom) / 2
        lo, hi = (
            int(round(middle - MID_CELL_REACH * cell)),
            int(round(middle + MID_CELL_REACH * cell)),
        )
        crossed += axis.coverage[lo : hi + 1].max() >= MID_CELL_COVERAGE
    if crossed >= MID_CELL_SHARE * n:
        return None
    positions = placed(even_lines(found, axis.coverage, cell, reach, WEAK_LINE_COVERAGE))
    positions[0] = min(positions[0], positions[1] - 0.5 * cell)
    positions[-1] = max(positions[-1], positions[-2] + 0.5 * cell)
    return positions


def _line_thickness(axis: _Axis, lines: list[float]) -> np.ndarray:
    """How heavily each interior line prints: its darkness summed across a window around it."""
    gaps = np.diff(lines)
    result = []
    for i in range(1, len(lines) - 1):
        reach = THICKNESS_REACH * min(gaps[i - 1], gaps[i])
        lo = int(round(lines[i] - reach))
        hi = int(round(lines[i] + reach)) + 1
        result.append(float(axis.thickness[lo:hi].sum()))
    return np.array(result)


def _box_contrast(thickness: np.ndarray, every: int) -> float:
    """How much thicker the lines at every ``every``-th position are than the rest."""
    index = np.arange(1, len(thickness) + 1)
    thick = thickness[index % every == 0]
    thin = thickness[index % every != 0]
    return float(thick.mean() / max(thin.mean(), 1e-6))


def _box_shape(
    n: int, rows: _Axis, cols: _Axis, row_lines: list[float], col_lines: list[float]
) -> GridShape | None:
    row_thickness = _line_thickness(rows, row_lines)
    col_thickness = _line_thickness(cols, col_lines)
    best: tuple[float, GridShape] | None = None
    for box_rows in range(2, n):
        if n % box_rows:
            continue
        box_cols = n // box_rows
        if box_cols < 2:
            continue
        # Box rows are separated by thick horizontal lines every box_rows cells, and box
        # columns by thick vertical lines every box_cols cells.
        contrast = min(
            _box_contrast(row_thickness, box_rows), _box_contrast(col_thickness, box_cols)
        )
        if best is None or contrast > best[0]:
            best = (contrast, GridShape(box_rows, box_cols))
    if best is None or best[0] < MIN_BOX_CONTRAST:
        return None
    return best[1]


def cell_parts(board_pixels: np.ndarray, lattice: Lattice) -> int:
    """Into how many parts lines running most of the board cut the lattice's cells, in most
    rows or in most columns of cells, whichever are cut more (1: the cells are whole). A grid
    of more lines than any supported size (a 36x36) has a comb of a smaller size that fits it
    (a 12x12, every third line), with the other lines through every cell. A table or calendar
    taken for a square grid has its lines cross the cells one way at least: its lines the
    other way may fit the comb, or be bent out of line by straightening."""
    gray = (
        board_pixels if board_pixels.ndim == 2 else cv2.cvtColor(board_pixels, cv2.COLOR_BGR2GRAY)
    )
    ink = ink_mask(gray)
    darkness = _darkness(gray, min(gray.shape[:2]))
    parts = []
    for horizontal, lines in ((True, lattice.row_lines), (False, lattice.col_lines)):
        coverage = _axis_evidence(ink, darkness, horizontal).coverage
        counts = []
        for top, bottom in zip(lines[:-1], lines[1:], strict=True):
            inset = INTERIOR_INSET * (bottom - top)
            inside = coverage[int(round(top + inset)) : int(round(bottom - inset)) + 1]
            crossing = (inside >= MID_CELL_COVERAGE).astype(np.int8)
            counts.append(int(np.count_nonzero(np.diff(crossing, prepend=0) == 1)))
        parts.append(1 + int(np.median(counts)))
    return max(parts)
