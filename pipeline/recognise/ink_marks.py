"""The ink of each marked cell of a board, measured: its glyphs' sizes, places and strokes.

What a mark is (printed, pencilled, handwritten) is judged against the board's own printed
glyphs (``pipeline.recognise.ink_kinds``), so everything here is in units of the cell, and
the ink is found relative to the paper right around it (a shadow or a photo's vignetting
darkens the paper and the print alike).

The cell is the one its printed lines bound, since a page that bends moves and scales its
digits with its lines. Lines printed apart from the digits (a misregistered plate, lines
ruled off their places) move alone, and the digits keep one size whatever span their lines
leave them: such a board's glyphs are measured in its mean cell (``print_off_lines``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from sudoku_batch.pipeline.board import Lattice

# Lines are trimmed by this share of the cell on each side; the board's long strokes (lines,
# what a lattice a few pixels off leaves of them) are painted out before that, so a small
# candidate written close to a line is kept.
TRIM = 0.06
# Paper "right around" a stroke: within this share of a cell, wider than any digit's stroke.
STROKE_REACH = 0.3
# Strokes at least this share of a cell long are lines (a digit's strokes are shorter).
LINE_CELLS = 0.8
# Ink: darker than its paper by this share of the board's print depth (the darkest marks of the
# board's marked cells). Pencil is lighter than print, so the share is low.
INK_SHARE = 0.25
# The board's print depth: this percentile of the darkness of its marked cells' pixels.
PRINT_PERCENT = 99.5
# Glyphs are measured in units of their cell as printed (a board straightened unevenly stretches
# some cells): its lines are looked for this share of a cell either side of the lattice's, and
# count where they cross at least LINE_COVERAGE of the cell's interior.
LINE_SEARCH = 0.25
LINE_COVERAGE = 0.5
# The print keeps its own scale apart from its lines when its main glyphs' heights spread less
# in pixels than as shares of their cells' printed spans, by at least this much and by
# OFF_LINES_RATIO times (the mean absolute departure of their logarithms from the median: on
# synth's misregistered photos 0.003-0.018 in pixels against 0.066-0.114 in spans; on its
# bent show-through photos pixels did better than spans by 0.012 at most); measured on
# MIN_OFF_LINES glyphs or more, each at least PRINT_DARKNESS of the print depth deep (print,
# not show-through, pencil or shade).
OFF_LINES_MARGIN = 0.03
OFF_LINES_RATIO = 2.0
MIN_OFF_LINES = 8
PRINT_DARKNESS = 0.5
# Ink under this share of its own glyph's depth (that glyph's PEAK_PERCENT darkest pixel), and
# more than FAINT_REACH pixels from that glyph's deeper ink, may not be of that glyph: the back
# page's print showing through (at most about 0.45 as dark as the print) joined to a printed
# given makes it measure taller, as a handwritten entry. A glyph's height without it is its
# ``deep`` height; only a glyph of print depth (PRINT_DARKNESS) has one apart (pencil is faint
# throughout, and a pen's stroke may fade at its end).
FAINT_SHARE = 0.5
FAINT_REACH = 2
PEAK_PERCENT = 95
# Blobs smaller than this share of the cell each way are specks (dust, paper grain).
SPECK_SHARE = 0.08
# A blob at the interior's edge thinner than this share of the cell is a line's remnant...
SLIVER_SHARE = 0.08
# ...and so is one there this many times as long as it is thick.
LINE_ASPECT = 4


@dataclass(frozen=True)
class Blob:
    """One glyph of a cell (ink joined across hairline breaks): its size and its centre's
    offset from the cell's centre, in cells; ``box`` in board pixels (x, y, width, height)."""

    height: float
    width: float
    offset_x: float
    offset_y: float
    box: tuple[int, int, int, int]
    area: int  # ink pixels
    edge: bool = False  # it reaches the interior's edge (it may be joined to a line's remnant)
    # The height of its ink of its own depth, for a glyph of print depth (``_deep_height``).
    deep_height: float | None = None

    @property
    def deep(self) -> float:
        """Its height, fainter ink joined to it left out (``FAINT_SHARE``)."""
        return self.height if self.deep_height is None else self.deep_height


@dataclass(frozen=True)
class CellInk:
    """A marked cell's ink: its glyphs, most ink first, the mean width of its strokes and how
    dark they are (both as shares of the cell and of the board's print depth)."""

    blobs: tuple[Blob, ...]
    stroke_width: float
    darkness: float
    # The main glyph's ink pixels within its box (``pipeline.recognise.ink_looks``).
    glyph: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def tallest(self) -> float:
        return max(blob.height for blob in self.blobs)

    @property
    def main(self) -> Blob:
        """The glyph with the most ink."""
        return self.blobs[0]

    @property
    def whole(self) -> Blob:
        """All of the cell's glyphs as one: the box around them (its area, their ink)."""
        top = min(blob.offset_y - blob.height / 2 for blob in self.blobs)
        bottom = max(blob.offset_y + blob.height / 2 for blob in self.blobs)
        left = min(blob.offset_x - blob.width / 2 for blob in self.blobs)
        right = max(blob.offset_x + blob.width / 2 for blob in self.blobs)
        x0 = min(blob.box[0] for blob in self.blobs)
        y0 = min(blob.box[1] for blob in self.blobs)
        x1 = max(blob.box[0] + blob.box[2] for blob in self.blobs)
        y1 = max(blob.box[1] + blob.box[3] for blob in self.blobs)
        return Blob(
            height=bottom - top,
            width=right - left,
            offset_x=(left + right) / 2,
            offset_y=(top + bottom) / 2,
            box=(x0, y0, x1 - x0, y1 - y0),
            area=sum(blob.area for blob in self.blobs),
            edge=any(blob.edge for blob in self.blobs),
        )


def measure_ink(
    gray: np.ndarray,
    lattice: Lattice,
    positions: list[tuple[int, int]],
    printed: list[tuple[int, int]] | None = None,
) -> dict[tuple[int, int], CellInk]:
    """The ink of each cell (row, col) of a grey board; a cell with no ink above the specks
    is left out. The board's print depth is learnt from the cells ``printed`` (among
    ``positions``; by default all of them), so cells looked at besides them do not move it.
    Glyphs are measured in their cells as printed, or in the board's mean cell where the
    print keeps its own scale apart from its lines (``print_off_lines``)."""
    by_lines = _measured(gray, lattice, positions, printed, by_lines=True)
    if not _off_lines(by_lines):
        return by_lines
    return _measured(gray, lattice, positions, printed, by_lines=False)


def print_off_lines(gray: np.ndarray, lattice: Lattice) -> bool:
    """Whether the print of a grey board keeps its own scale apart from its printed lines
    (``lattice``: where they run): its glyphs' heights agree better in pixels than as shares
    of the spans their lines leave them. A page's bend moves and scales digits and lines
    alike; lines printed off their places (a misregistered plate) move alone."""
    positions = [
        (row, col) for row in range(lattice.shape.size) for col in range(lattice.shape.size)
    ]
    return _off_lines(_measured(gray, lattice, positions, None, by_lines=True))


def _off_lines(inks: dict[tuple[int, int], CellInk]) -> bool:
    printed = [ink for ink in inks.values() if ink.darkness >= PRINT_DARKNESS]
    if len(printed) < MIN_OFF_LINES:
        return False
    # The main glyph's height as a share of its cell's printed span, and in pixels.
    in_spans = np.array([ink.main.height for ink in printed])
    in_pixels = np.array([ink.main.box[3] - 2 for ink in printed], dtype=float)
    if (in_spans <= 0).any() or (in_pixels <= 0).any():
        return False
    by_spans, by_pixels = _log_spread(in_spans), _log_spread(in_pixels)
    return by_spans - by_pixels >= OFF_LINES_MARGIN and by_spans >= OFF_LINES_RATIO * by_pixels


def _log_spread(values: np.ndarray) -> float:
    logs = np.log(values)
    return float(np.mean(np.abs(logs - np.median(logs))))


def _measured(
    gray: np.ndarray,
    lattice: Lattice,
    positions: list[tuple[int, int]],
    printed: list[tuple[int, int]] | None,
    by_lines: bool,
) -> dict[tuple[int, int], CellInk]:
    """``measure_ink``'s ink, its glyphs measured in their cells as printed (``by_lines``) or
    in the board's mean cell."""
    if not positions:
        return {}
    rows, cols = lattice.row_lines, lattice.col_lines
    cell = float(min(np.diff(rows).min(), np.diff(cols).min()))
    mean_cell = ((rows[-1] - rows[0]) / (len(rows) - 1), (cols[-1] - cols[0]) / (len(cols) - 1))
    darkness, lines = _stroke_darkness(gray, cell)
    boxes = {pos: _interior(rows, cols, *pos) for pos in positions}
    reference = [boxes[pos] for pos in (positions if printed is None else printed)]
    if not reference:
        return {}
    marked = np.concatenate([darkness[ys, xs].ravel() for ys, xs in reference])
    depth = max(float(np.percentile(marked, PRINT_PERCENT)), 1.0)
    bounds = lines | _shading_edges(gray, cell, INK_SHARE * depth)
    found = {}
    for pos, (ys, xs) in boxes.items():
        row, col = pos
        drawn = (
            (
                _drawn_span(bounds, rows[row], rows[row + 1], xs, cell),
                _drawn_span(bounds.T, cols[col], cols[col + 1], ys, cell),
            )
            if by_lines
            else mean_cell
        )
        ink = _cell_ink(darkness[ys, xs], depth, cell, (xs.start, ys.start), drawn)
        if ink is not None:
            found[pos] = ink
    return found


def _interior(
    rows: tuple[float, ...], cols: tuple[float, ...], row: int, col: int
) -> tuple[slice, slice]:
    trim_y = TRIM * (rows[row + 1] - rows[row])
    trim_x = TRIM * (cols[col + 1] - cols[col])
    y0, y1 = int(round(rows[row] + trim_y)), int(round(rows[row + 1] - trim_y))
    x0, x1 = int(round(cols[col] + trim_x)), int(round(cols[col + 1] - trim_x))
    return slice(max(y0, 0), max(y1, y0 + 1)), slice(max(x0, 0), max(x1, x0 + 1))


def _shading_edges(gray: np.ndarray, cell: float, step: float) -> np.ndarray:
    """Where the paper steps by ``step`` or more in a long straight edge: a shaded box's
    border, which bounds its cells where its printed line is too faint against the shade."""
    reach = max(3, int(STROKE_REACH * cell)) | 1
    paper = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, np.ones((reach, reach), np.uint8))
    steps = cv2.morphologyEx(paper, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    return _long_strokes((steps > step).astype(np.uint8), cell)


def _long_strokes(mask: np.ndarray, cell: float) -> np.ndarray:
    length = max(3, int(LINE_CELLS * cell))
    across = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    return cv2.bitwise_or(across, down)


def _drawn_span(lines: np.ndarray, start: float, end: float, across: slice, cell: float) -> float:
    """How far apart (pixels) the printed lines or shading edges (``lines``) that bound a cell
    lie where its interior (``across``) runs, each looked for within ``LINE_SEARCH`` of a cell
    of where the lattice puts it, or the lattice's place where none is found there."""
    found = []
    for place in (start, end):
        y0 = max(int(round(place - LINE_SEARCH * cell)), 0)
        y1 = min(int(round(place + LINE_SEARCH * cell)) + 1, lines.shape[0])
        if y1 <= y0:  # a line placed beyond the board (a traced lattice may put one there)
            found.append(place)
            continue
        window = lines[y0:y1, across] > 0
        inked = window.any(axis=0)
        # Each column's line where it crosses it (a tilted line is found as well as a level one).
        if inked.sum() < LINE_COVERAGE * window.shape[1]:
            found.append(place)
            continue
        heights = np.arange(y0, y1, dtype=float)[:, None]
        middles = (window * heights).sum(axis=0)[inked] / window.sum(axis=0)[inked]
        found.append(float(np.median(middles)))
    return found[1] - found[0]


def _stroke_darkness(gray: np.ndarray, cell: float) -> tuple[np.ndarray, np.ndarray]:
    """How much darker than the paper right around it each pixel is, long strokes (lines)
    painted out; and where those lines are."""
    reach = max(3, int(STROKE_REACH * cell)) | 1
    darkness = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, np.ones((reach, reach), np.uint8))
    _, ink = cv2.threshold(darkness, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    lines = cv2.dilate(_long_strokes(ink, cell), np.ones((3, 3), np.uint8))
    darkness[lines > 0] = 0
    return darkness, lines


def _glyphs(ink: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """The ink's glyphs: pixels one apart are one stroke (light print and pencil break up at a
    threshold)."""
    joined = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    return count, labels, stats


def _deep_height(mine: np.ndarray, darkness: np.ndarray, depth: float) -> int | None:
    """How tall (pixels) a glyph's ink of its own depth stands (``FAINT_SHARE``), for a glyph
    of print depth; None for one all faint, as pencil is."""
    peak = float(np.percentile(darkness[mine], PEAK_PERCENT))
    if peak < PRINT_DARKNESS * depth:
        return None
    core = (mine & (darkness >= FAINT_SHARE * peak)).astype(np.uint8)
    near = np.ones((2 * FAINT_REACH + 1,) * 2, np.uint8)
    rows = np.flatnonzero((mine & (cv2.dilate(core, near) > 0)).any(axis=1))
    return int(rows[-1] - rows[0] + 1)


def _cell_ink(
    darkness: np.ndarray,
    depth: float,
    cell: float,
    origin: tuple[int, int],
    drawn: tuple[float, float],
) -> CellInk | None:
    """A cell's ink; its glyphs' sizes and places in units of the cell as printed (``drawn``:
    its height and width between its printed lines), so a board stretched unevenly between its
    lines reads alike in every cell."""
    cell_h, cell_w = drawn
    ink = (darkness > INK_SHARE * depth).astype(np.uint8)
    count, labels, stats = _glyphs(ink)
    blobs = []
    labelled = []
    keep = np.zeros(count, dtype=bool)
    h, w = ink.shape
    for label in range(1, count):
        x, y, bw, bh, _ = stats[label]
        if bw < SPECK_SHARE * cell and bh < SPECK_SHARE * cell:
            continue
        touches = x == 0 or y == 0 or x + bw == w or y + bh == h
        # What is left of a line: a blob running along an edge of the interior, thin across
        # it, or a sliver at the edge.
        if (bw >= 0.9 * w and bh < SPECK_SHARE * 2 * cell) or (
            bh >= 0.9 * h and bw < SPECK_SHARE * 2 * cell
        ):
            continue
        if touches and (
            min(bw, bh) < SLIVER_SHARE * cell or max(bw, bh) >= LINE_ASPECT * min(bw, bh)
        ):
            continue
        keep[label] = True
        deep = _deep_height((ink > 0) & (labels == label), darkness, depth)
        blobs.append(
            Blob(
                height=(bh - 2) / cell_h,
                width=(bw - 2) / cell_w,
                offset_x=(x + bw / 2 - w / 2) / cell_w,
                offset_y=(y + bh / 2 - h / 2) / cell_h,
                box=(int(origin[0] + x), int(origin[1] + y), int(bw), int(bh)),
                area=int(np.count_nonzero(ink[labels == label])),
                edge=bool(touches),
                deep_height=None if deep is None else deep / cell_h,
            )
        )
        labelled.append(label)
    if not blobs:
        return None
    strokes = ink * keep[labels].astype(np.uint8)
    area = float(np.count_nonzero(strokes))
    contours, _ = cv2.findContours(strokes, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    perimeter = sum(cv2.arcLength(contour, True) for contour in contours)
    # A stroke of width s and length L has area s*L and outline about 2L.
    stroke_width = 2.0 * area / max(perimeter, 1.0) / cell
    darkness_of_ink = float(np.median(darkness[strokes > 0])) / depth
    main = max(range(len(blobs)), key=lambda index: blobs[index].area)
    x, y, bw, bh = stats[labelled[main]][:4]
    glyph = (ink[y : y + bh, x : x + bw] > 0) & (labels[y : y + bh, x : x + bw] == labelled[main])
    blobs.sort(key=lambda blob: -blob.area)
    return CellInk(tuple(blobs), stroke_width, darkness_of_ink, glyph)
