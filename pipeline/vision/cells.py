"""Sort the cells of a rectified board into empty, given and blocked.

Each cell is judged against its own background, so a shaded (tinted or grey) cell reads like a
white one, and against the paper right around its strokes, so a shadow's edge is no print. Ink
is measured in the darkest channel, so red or blue print is as dark as black, with the board's
long lines as paper, so a lattice a few pixels off them (or the back page's lines showing
through) leaves no ink. How dark and how long a digit's strokes must be is learnt from the
board itself: the depth of the darkest ink in each cell's centre splits into empty cells
(paper grain, blur) and givens (print), and a light, thin or blurred font moves both together;
a cell in a shadow, shallow against its darkened paper, holds print when its centre is as dark
as the board's print. A halftone screen's dots are told from print by how little of their
depth is left once the board is blurred over their spacing.
"""

from __future__ import annotations

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, CellImage, CellKind, Lattice
from sudoku_batch.pipeline.vision.diagonals import without_drawn_diagonals
from sudoku_batch.pipeline.vision.levels import grey_level_each, grey_levels
from sudoku_batch.pipeline.vision.screen import descreen_blur

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
# A smaller share finds more hairline digits but lets a blurred photo's line remnant pass as a
# given.
STROKE_CELLS = 0.4
# With the lines painted out, the interior looked at reaches closer to them, for a small digit
# in a corner.
OFF_CENTRE_TRIM = 0.05
# A straight stroke along the lattice this many cells long is a line (the board's own lines, a
# few pixels off the lattice, or the back page's showing through), never a digit's: digits
# printed larger than their cells reach well under two cells. Such a line is no ink where it
# runs off the cells' central region (CENTRE_FRACTION); one through the middle of the cells
# says they are really several, and is left for their readings to contradict the lattice
# (pipeline.recognise.remeasure).
LONG_LINE_CELLS = 2.0
# A character's stroke cores hold a piece (unjoined ink) at least this share as long as the
# board's typical given's longest piece (the 90th percentile over the cells deep enough to be
# givens); a halftone screen's dots, or the paper's grain, are as dark but come in short pieces.
# Pieces are looked for in the darkness averaged over PIECE_MEAN_PX square, which fades dots
# a pixel or two wide more than strokes.
PIECE_SHARE = 0.4
PIECE_MEAN_PX = 3
# A given's centre is at least this share as dark against the paper within STROKE_REACH as
# against its cell's background: print, thinner than that reach, is about as dark against both
# (a blurred photo's a little less); a shadow's edge, wider, is hardly darker than the paper
# right beside it. Counted above the board's noise, which is as dark against the paper beside
# it in every cell: a shadow's edge under noise passes otherwise.
LOCAL_DEPTH_SHARE = 0.25
# ...unless it is darker than this share of the way from the board's print to its paper.
PRINT_SHARE = 0.25
# A given's centre keeps at least this share of its depth, blurred over SCREEN_BLUR_CELLS (about
# a newspaper screen's dot spacing), as the board's median centred given keeps; a screen's
# dots keep well under it.
SCREEN_BLUR_CELLS = 0.03
SCREEN_SHARE = 0.6


def classify_cells(board: BoardImage) -> list[CellImage]:
    """All N*N cells row-major, each with its kind (drawn diagonals are no print in a cell)."""
    darkest = darkest_channel(without_drawn_diagonals(board.pixels, board.lattice))
    # A coarse halftone screen's dots, joined by moire, are as deep and long as strokes:
    # blurred over their spacing they are a flat tint, print stays print.
    blur = descreen_blur(darkest)
    # Blurred, print spreads about twice the blur each way (into a digit's loops, over the
    # paper round it): the paper "right around" it is looked for as much farther out.
    spread = 0
    if blur is not None:
        darkest = cv2.GaussianBlur(darkest, (0, 0), blur)
        spread = int(4 * blur)
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
    # The board's long lines (``LONG_LINE_CELLS``), off the cells' central region, are no ink:
    # in the cells they cross, paper.
    darkness = _darkness(darkest, board.lattice, spread)
    line_ink = (darkness > INK_SHARE * (paper - print_level)).astype(np.uint8)
    side_lines = _side_lines(line_ink, board.lattice)
    print_darkness = darkness.copy()
    print_darkness[side_lines > 0] = 0
    interior_boxes = [_box(rows, cols, index, n, LINE_TRIM) for index in range(n * n)]
    off_lines = [
        np.where(side_lines[box] > 0, np.uint8(background), interior)
        for box, interior, background in zip(interior_boxes, interiors, backgrounds, strict=True)
    ]
    centre_levels = grey_level_each([_centre(interior) for interior in off_lines], DEPTH_PERCENT)
    depths = [
        background - level for level, background in zip(centre_levels, backgrounds, strict=True)
    ]
    open_depths = [d for d, solid in zip(depths, blocked, strict=True) if not solid]
    given_depth = _given_depth(np.array(open_depths), paper - print_level)
    # Print is as dark against the paper right around it as against its cell's background; a
    # shadow's edge, deep against the background, is not.
    cell_darkness = [print_darkness[box] for box in interior_boxes]
    local_depths = grey_level_each([_centre(cell) for cell in cell_darkness], 100 - DEPTH_PERCENT)
    # Ink as dark as the board's print is print however wide; no shadow is that dark.
    ink_level = print_level + PRINT_SHARE * (paper - print_level)
    # A given deep in a shadow is shallow against its darkened paper, but its print is as dark
    # as the board's darkest print or darker: no paper in the light is.
    floor_depth = MIN_DEPTH_SHARE * (paper - print_level)
    # Sensor noise is dark against the paper right around it too, as deep in every empty cell;
    # what print adds stands above that.
    noise = _noise_depth(local_depths, depths, blocked, given_depth)
    deep = [
        index
        for index, (depth, local, level) in enumerate(
            zip(depths, local_depths, centre_levels, strict=True)
        )
        if (depth >= given_depth or (level <= print_level and depth >= floor_depth))
        and (local - noise >= LOCAL_DEPTH_SHARE * depth or level <= ink_level)
        and not blocked[index]
    ]
    # The ink is the stroke cores: darker than halfway to the cell's darkest print.
    inks = {
        index: (off_lines[index] < backgrounds[index] - depths[index] / 2).astype(np.uint8)
        for index in deep
    }
    smooth = cv2.blur(print_darkness, (PIECE_MEAN_PX, PIECE_MEAN_PX))
    pieces = {
        index: _longest_piece(
            (smooth[interior_boxes[index]] > local_depths[index] / 2).astype(np.uint8)
        )
        for index in deep
    }
    # Short pieces are a screen's dots or the paper's grain; on a descreened board both are
    # blurred away, and a thin digit's cores, blurred over half the dots' spacing, break into
    # short pieces themselves: there no piece is too short.
    min_piece = 0.0
    if pieces and blur is None:
        min_piece = PIECE_SHARE * np.percentile(list(pieces.values()), 90)
    kinds = [CellKind.BLOCKED if solid else CellKind.EMPTY for solid in blocked]
    centred = [index for index in deep if pieces[index] >= min_piece and _holds_digit(inks[index])]
    # A halftone screen's dots, joined by moire, can make pieces as long as strokes; blurred
    # over about their spacing, they fade far more than the board's print does.
    kept = _screen_kept(darkest, board.lattice, side_lines, interior_boxes, centred, spread)
    if kept:
        typical_kept = float(np.median([kept[i] / max(local_depths[i], 1.0) for i in centred]))
        for index in centred:
            if kept[index] / max(local_depths[index], 1.0) >= SCREEN_SHARE * typical_kept:
                kinds[index] = CellKind.GIVEN
    # Cells whose centre holds no digit but which hold print as deep as a given's elsewhere.
    stroke_pixels = max(1, int(round(STROKE_CELLS * _cell(board.lattice))))
    doubtful = [
        index
        for index, kind in enumerate(kinds)
        if kind is CellKind.EMPTY
        and _depth(off_lines[index], backgrounds[index], stroke_pixels) >= given_depth
    ]
    if doubtful:
        strokes = _stroke_darkness(print_darkness, _lines(line_ink, board.lattice, LINE_CELLS))
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


def _screen_kept(
    darkest: np.ndarray,
    lattice: Lattice,
    side_lines: np.ndarray,
    boxes: list[tuple[slice, slice]],
    indices: list[int],
    spread: int,
) -> dict[int, float]:
    """Per cell of ``indices``, its centre's depth (as ``local_depths`` measures it, paper
    looked for ``spread`` pixels farther out) once the board is blurred over a halftone
    screen's spacing (``SCREEN_BLUR_CELLS``)."""
    if not indices:
        return {}
    blurred = cv2.GaussianBlur(darkest, (0, 0), SCREEN_BLUR_CELLS * _cell(lattice))
    darkness = _darkness(blurred, lattice, spread)
    darkness[side_lines > 0] = 0
    levels = grey_level_each([_centre(darkness[boxes[i]]) for i in indices], 100 - DEPTH_PERCENT)
    return dict(zip(indices, levels, strict=True))


def _noise_depth(
    local_depths: list[float], depths: list[float], blocked: list[bool], given_depth: float
) -> float:
    """How dark the board's noise (grain, sensor noise) is against the paper right around it:
    the median local depth of its open cells shallower than a given (0 with none)."""
    empty = [
        local
        for local, depth, solid in zip(local_depths, depths, blocked, strict=True)
        if depth < given_depth and not solid
    ]
    return float(np.median(empty)) if empty else 0.0


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


def _stroke_darkness(darkness: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """The board's darkness (``_darkness``) with its long horizontal and vertical strokes
    (grid lines, whatever of them a lattice a few pixels off leaves in a cell's interior)
    painted out."""
    strokes = darkness.copy()
    strokes[lines > 0] = 0
    return strokes


def _darkness(darkest: np.ndarray, lattice: Lattice, spread: int = 0) -> np.ndarray:
    """How much darker than the paper right around it each pixel of the board is. Print
    strokes are dark against paper close by; a shadow or a photo's vignetting darkens the
    paper around them alike. ``spread``: pixels farther out, for print blurred as wide."""
    reach = max(3, int(STROKE_REACH * _cell(lattice)) + spread) | 1
    return cv2.morphologyEx(darkest, cv2.MORPH_BLACKHAT, np.ones((reach, reach), np.uint8))


def _lines(ink: np.ndarray, lattice: Lattice, cells: float) -> np.ndarray:
    """A mask of the straight horizontal and vertical strokes of ``ink`` at least ``cells``
    cells long, counting a stroke that runs out of the board as long, a pixel wider each
    side."""
    across, down = _straight_strokes(ink, lattice, cells, cv2.BORDER_REPLICATE)
    return cv2.dilate(cv2.bitwise_or(across, down), np.ones((3, 3), np.uint8))


def _straight_strokes(
    ink: np.ndarray, lattice: Lattice, cells: float, border: int
) -> tuple[np.ndarray, np.ndarray]:
    """The horizontal and the vertical strokes of ``ink`` at least ``cells`` cells long;
    beyond the board, ink as ``border`` (an OpenCV border type) extends it."""
    length = max(3, int(cells * _cell(lattice)))
    edge = {"borderType": border, "borderValue": 0}
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, length), np.uint8), **edge)
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8), **edge)
    return across, down


def _side_lines(ink: np.ndarray, lattice: Lattice) -> np.ndarray:
    """A mask of the long lines of ``ink`` (``LONG_LINE_CELLS``) where they run off the central
    region of the cells they cross: vertical lines left or right of it, horizontal ones above
    or below it."""
    # No ink beyond the board's edge: a digit printed larger than its cell may run out of it.
    across, down = _straight_strokes(ink, lattice, LONG_LINE_CELLS, cv2.BORDER_CONSTANT)
    h, w = ink.shape
    across[_central(lattice.row_lines, h), :] = 0
    down[:, _central(lattice.col_lines, w)] = 0
    return cv2.dilate(cv2.bitwise_or(across, down), np.ones((5, 5), np.uint8))


def _central(lines: tuple[float, ...], length: int) -> np.ndarray:
    """Which of ``length`` positions lie in the central region of the cells between
    ``lines``."""
    positions = np.arange(length, dtype=np.float64)
    starts, ends = np.asarray(lines[:-1]), np.asarray(lines[1:])
    cell = np.clip(np.searchsorted(starts, positions, side="right") - 1, 0, len(starts) - 1)
    share = (positions - starts[cell]) / (ends[cell] - starts[cell])
    return np.abs(share - 0.5) < CENTRE_FRACTION / 2


def _cell(lattice: Lattice) -> float:
    return float(min(np.diff(lattice.row_lines).min(), np.diff(lattice.col_lines).min()))


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


def _longest_piece(ink: np.ndarray) -> int:
    """The longer side of the largest box round a piece of unjoined ink, in pixels."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count < 2:
        return 0
    return int(stats[1:, cv2.CC_STAT_WIDTH : cv2.CC_STAT_HEIGHT + 1].max())


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
