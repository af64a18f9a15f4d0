"""Sort the cells of a rectified board into empty, given and blocked.

Each cell is judged against its own background, so a shaded (tinted or grey) cell reads like a
white one. Ink is measured in the darkest channel, so red or blue print is as dark as black.
How dark a digit must be is learnt from the board itself: the depth of the darkest ink in each
cell's centre splits into empty cells (paper grain, blur) and givens (print), and a light,
thin or blurred font moves both together.
"""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, CellImage, CellKind, Lattice
from sudoku_batch.pipeline.vision.levels import grey_level_each, grey_levels

# A blocked cell is filled solid: its background is at most this share of the paper around it
# (the median background of it and its 8 neighbours, so a shadow across the board darkens
# both alike). Tinted or grey shading in books and newspapers stays well above it.
BLOCKED_BRIGHTNESS = 0.45
# Lines are trimmed by this share of the cell on each side before looking for ink; enough to
# clear a thick box line and a few pixels of lattice error.
LINE_TRIM = 0.12
# A cell's depth is how much darker than its background the darkest few percent of its centre
# are. The board's depths split into empty cells (paper grain, blur) and givens (print); the
# split is put in the middle of the widest gap between the two groups, so that print fading
# across the board (light, a photo's vignetting) still lands among the givens. It is at most
# this share of the board's typical given depth (its 90th percentile of cell depths, since
# puzzles give well over a tenth of their cells), which alone served before and cut faded
# givens...
GIVEN_DEPTH_SHARE = 0.45
# ...and at least this share of the board's print contrast (paper minus its darkest lines),
# so that a nearly empty board's paper grain is not read as print.
MIN_DEPTH_SHARE = 0.12
DEPTH_PERCENT = 3
# An empty cell's confidence falls to 1/(1+e) at this share of the given depth below the split.
EMPTY_MARGIN_SHARE = 0.15
# A digit is at least this tall (share of the cell's interior) and touches the cell's central
# region; specks, line remnants and show-through from the back of the page do not. The
# shortest digits of the wichtounet photos are about 0.45 of it; a round speck of ink or dust,
# joined up, reaches a quarter.
MIN_DIGIT_HEIGHT = 0.3
CENTRE_FRACTION = 0.5
# A digit may also sit off the centre: set against a line, or small in a corner. A cell whose
# centre holds none is looked at whole, with the board's lines painted out (strokes at least
# this share of a cell long; digits that long cross the centre), and its depth is that of its
# darkest pixels along STROKE_CELLS of a cell: a small digit covers few of its pixels, and a
# hairline one (1-2 px strokes) under 1% of a 64 px cell, so no share of the cell's pixels
# would do.
LINE_CELLS = 0.9
# Ink for finding lines: darker than paper by this share of the board's print contrast.
INK_SHARE = 0.25
# Paper "right around" a stroke: within this share of a cell, wider than any digit's stroke.
STROKE_REACH = 0.3
# Off the centre, a blob filled to more than this share of its box and less than SPECK_ASPECT
# times as tall as wide is a speck, not a digit.
SPECK_FILL = 0.5
SPECK_ASPECT = 1.3
# Print off the centre stands out of the paper's grain at least this share as far as the median
# given does.
STROKE_SHARE = 0.7
# A quarter cell found more hairline digits but let a blurred photo's line remnant pass as a
# given (docs/recognition.md, tenth round).
STROKE_CELLS = 0.4
# With the lines painted out, the interior looked at reaches closer to them, for a small digit
# in a corner.
OFF_CENTRE_TRIM = 0.05


def classify_cells(board: BoardImage) -> list[CellImage]:
    """All N*N cells row-major, each with its kind."""
    darkest = darkest_channel(board.pixels)
    print_level, paper = grey_levels(darkest, (2, 90))
    rows, cols = board.lattice.row_lines, board.lattice.col_lines
    n = board.shape.size
    interiors = [darkest[_box(rows, cols, index, n, LINE_TRIM)] for index in range(n * n)]
    backgrounds = grey_level_each(interiors, 75)
    around = _neighbourhood_median(np.array(backgrounds).reshape(n, n)).ravel()
    blocked = [
        background < BLOCKED_BRIGHTNESS * local
        for background, local in zip(backgrounds, around, strict=True)
    ]
    centre_levels = grey_level_each([_centre(interior) for interior in interiors], DEPTH_PERCENT)
    depths = [
        background - level for level, background in zip(centre_levels, backgrounds, strict=True)
    ]
    open_depths = [d for d, solid in zip(depths, blocked, strict=True) if not solid]
    given_depth = _given_depth(np.array(open_depths), paper - print_level)
    kinds = []
    for index, interior in enumerate(interiors):
        if blocked[index]:
            kinds.append(CellKind.BLOCKED)
            continue
        # The ink is the stroke cores: darker than halfway to the cell's darkest print.
        given = depths[index] >= given_depth and _holds_digit(
            (interior < backgrounds[index] - depths[index] / 2).astype(np.uint8)
        )
        kinds.append(CellKind.GIVEN if given else CellKind.EMPTY)
    # Cells whose centre holds no digit but which hold print as deep as a given's elsewhere.
    cell = min(np.diff(rows).min(), np.diff(cols).min())
    stroke_pixels = max(1, int(round(STROKE_CELLS * cell)))
    doubtful = [
        index
        for index, kind in enumerate(kinds)
        if kind is CellKind.EMPTY
        and _depth(interiors[index], backgrounds[index], stroke_pixels) >= given_depth
    ]
    if doubtful:
        strokes = _stroke_darkness(darkest, paper, print_level, board.lattice)
        boxes = [_box(rows, cols, index, n, OFF_CENTRE_TRIM) for index in range(n * n)]
        stroke_depths = {
            index: _stroke_depth(strokes[boxes[index]], stroke_pixels)
            for index, kind in enumerate(kinds)
            if kind is not CellKind.BLOCKED
        }
        given_strokes = [d for i, d in stroke_depths.items() if kinds[i] is CellKind.GIVEN]
        empty_strokes = [d for i, d in stroke_depths.items() if kinds[i] is CellKind.EMPTY]
        # Print off the centre stands out of the paper's grain (the empty cells' darkest
        # specks) about as far as the board's other givens do; a blurred photo's grain and
        # shadows do not.
        grain = float(np.median(empty_strokes))
        typical = float(np.median(given_strokes)) if given_strokes else grain
        stroke_depth = max(given_depth, grain + STROKE_SHARE * (typical - grain))
        for index in doubtful:
            min_height = MIN_DIGIT_HEIGHT * interiors[index].shape[0]
            if stroke_depths[index] < stroke_depth:
                continue
            if _holds_off_centre_digit(strokes[boxes[index]], stroke_depths[index], min_height):
                kinds[index] = CellKind.GIVEN
    cells = []
    for index, kind in enumerate(kinds):
        r, c = divmod(index, n)
        if kind is CellKind.EMPTY:
            empty = _empty_confidence(depths[index], given_depth)
            cells.append(CellImage(r, c, kind, empty))
        else:
            cells.append(CellImage(r, c, kind))
    return cells


def _empty_confidence(depth: float, given_depth: float) -> float:
    """How sure an empty cell is empty: a logistic of its depth's distance below the board's
    given depth, in units of that depth's share ``EMPTY_MARGIN_SHARE``. A cell as deep as the
    split (ink that did not look like a digit) scores 0.5 or less: a blank worth a look."""
    scale = max(EMPTY_MARGIN_SHARE * given_depth, 1.0)
    return float(1.0 / (1.0 + np.exp(np.clip((depth - given_depth) / scale, -50.0, 50.0))))


def _given_depth(depths: np.ndarray, contrast: float) -> float:
    """The depth from which a cell is a given: between the board's empty cells and givens."""
    floor = MIN_DEPTH_SHARE * contrast
    if depths.size == 0:
        return floor
    ceiling = max(GIVEN_DEPTH_SHARE * float(np.percentile(depths, 90)), floor)
    # The widest gap between neighbouring depths up to the ceiling (and the first one past
    # it) lies between the two groups: within each, depths lie close together. (Otsu's split
    # would go past a lone faint given, which it counts among the empty cells.)
    ordered = np.sort(depths)
    candidates = ordered[: int(np.searchsorted(ordered, ceiling, side="right")) + 1]
    if candidates.size < 2:
        return ceiling
    widest = int(np.argmax(np.diff(candidates)))
    split = (candidates[widest] + candidates[widest + 1]) / 2
    return float(np.clip(split, floor, ceiling))


def _neighbourhood_median(values: np.ndarray) -> np.ndarray:
    """Per cell, the median of the cell and its (up to 8) neighbours."""
    n = values.shape[0]
    padded = np.pad(values, 1, mode="constant", constant_values=np.nan)
    stacked = np.stack([padded[dy : dy + n, dx : dx + n] for dy in range(3) for dx in range(3)])
    # np.nanmedian, by one sort (the gaps sort last) and the middle of each cell's count: a
    # fifth of the time.
    ordered = np.sort(stacked, axis=0)
    count = np.count_nonzero(~np.isnan(stacked), axis=0)
    low = np.take_along_axis(ordered, ((count - 1) // 2)[None], axis=0)[0]
    high = np.take_along_axis(ordered, (count // 2)[None], axis=0)[0]
    return (low + high) / 2


def darkest_channel(pixels: np.ndarray) -> np.ndarray:
    """Per pixel, the darkest of B, G, R: coloured ink is as dark here as black ink is."""
    if pixels.ndim == 2:
        return pixels
    blue, green, red = cv2.split(pixels)  # far quicker than numpy's min over the last axis
    return cv2.min(cv2.min(blue, green), red)


def _centre(interior: np.ndarray) -> np.ndarray:
    """The central region of a cell, which every printed digit crosses."""
    h, w = interior.shape
    dy, dx = int(h * (1 - CENTRE_FRACTION) / 2), int(w * (1 - CENTRE_FRACTION) / 2)
    return interior[dy : h - dy, dx : w - dx]


def _depth(interior: np.ndarray, background: float, count: int) -> float:
    """How much darker than its background a cell's ``count`` darkest pixels are."""
    return background - _kth(interior.ravel(), count)


def _stroke_depth(darkness: np.ndarray, count: int) -> float:
    """The stroke darkness of a cell's ``count`` darkest pixels."""
    return -_kth(-darkness.ravel().astype(np.int16), count)


def _kth(values: np.ndarray, count: int) -> float:
    """The ``count``-th smallest of values (the largest, when there are fewer)."""
    k = min(count, values.size) - 1
    return float(np.partition(values, k)[k])


def _box(
    rows: tuple[float, ...], cols: tuple[float, ...], index: int, n: int, trim: float
) -> tuple[slice, slice]:
    """The slices of cell ``index``'s interior, ``trim`` of the cell off each side."""
    r, c = divmod(index, n)
    trim_y, trim_x = trim * (rows[r + 1] - rows[r]), trim * (cols[c + 1] - cols[c])
    y0, y1 = int(round(rows[r] + trim_y)), int(round(rows[r + 1] - trim_y))
    x0, x1 = int(round(cols[c] + trim_x)), int(round(cols[c + 1] - trim_x))
    return slice(max(y0, 0), max(y1, y0 + 1)), slice(max(x0, 0), max(x1, x0 + 1))


def _stroke_darkness(
    darkest: np.ndarray, paper: float, print_level: float, lattice: Lattice
) -> np.ndarray:
    """How much darker than the paper right around it each pixel of the board is, with its
    long horizontal and vertical strokes (grid lines, whatever of them a lattice a few pixels
    off leaves in a cell's interior) painted out. Print strokes are dark against paper close
    by; a shadow or a photo's vignetting darkens the paper around them alike."""
    cell = min(np.diff(lattice.row_lines).min(), np.diff(lattice.col_lines).min())
    reach = max(3, int(STROKE_REACH * cell)) | 1
    darkness = cv2.morphologyEx(darkest, cv2.MORPH_BLACKHAT, np.ones((reach, reach), np.uint8))
    ink = (darkness > INK_SHARE * (paper - print_level)).astype(np.uint8)
    length = max(3, int(LINE_CELLS * cell))
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    lines = cv2.dilate(cv2.bitwise_or(across, down), np.ones((3, 3), np.uint8))
    darkness[lines > 0] = 0
    return darkness


def _holds_off_centre_digit(darkness: np.ndarray, depth: float, min_height: float) -> bool:
    """Whether a cell's interior (stroke darkness, lines painted out; its print ``depth``
    deep) holds a blob of print ``min_height`` tall anywhere in it. A blob from one edge to the
    opposite one is what is left of a line (or a digit crossing the centre, which
    ``_holds_digit`` judged)."""
    ink = (darkness > depth / 2).astype(np.uint8)
    h, w = ink.shape
    joined = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    for label in range(1, count):
        x, y, bw, bh, _ = stats[label]
        if bh < min_height or bw >= w or bh >= h:
            continue
        # A speck of dust or ink is a round solid blot; a digit is strokes, or tall (a 1).
        # (Its box is a pixel wider each side than the ink, for the joining.)
        ink_w, ink_h = max(bw - 2, 1), max(bh - 2, 1)
        solid = np.count_nonzero(ink[y : y + bh, x : x + bw]) > SPECK_FILL * ink_w * ink_h
        if not (solid and ink_h < SPECK_ASPECT * ink_w):
            return True
    return False


def _holds_digit(ink: np.ndarray) -> bool:
    """Whether an ink blob tall enough to be a character reaches the cell's centre."""
    h, w = ink.shape
    # Thin, light or blurred print breaks into pieces at the threshold; joining pixels one
    # apart keeps each character one blob.
    joined = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    cx0, cx1 = w * (1 - CENTRE_FRACTION) / 2, w * (1 + CENTRE_FRACTION) / 2
    cy0, cy1 = h * (1 - CENTRE_FRACTION) / 2, h * (1 + CENTRE_FRACTION) / 2
    centre = labels[int(cy0) : int(np.ceil(cy1)), int(cx0) : int(np.ceil(cx1))]
    for label in range(1, count):
        x, y, bw, bh, _ = stats[label]
        reaches_centre = x < cx1 and x + bw > cx0 and y < cy1 and y + bh > cy0
        if not reaches_centre or bh < MIN_DIGIT_HEIGHT * h:
            continue  # a speck, or ink at the cell's edge
        # A blob spanning the whole interior is a digit printed larger than its cell when its
        # ink crosses the centre; remnants of the cell's lines frame an empty centre.
        if not (bw >= w and bh >= h) or np.any(centre == label):
            return True
    return False
