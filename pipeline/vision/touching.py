"""Split an outline that holds grids printed against each other into one outline per grid.

Grids of one size printed with no gap between them make one outline, which may even read as
a Sudoku of another size (four 9x9s sharing their borders show 7 evenly spaced heavy lines,
as a 12x12 with 2x6 boxes does among its lines). What gives them away is how their lines
repeat: a Sudoku's box is as many cells wide as there are box lines across it, so along each
side its cells number the product of the cells between heavy lines in both directions. An
outline with k times that many along a side holds k grids across it, and is cut at every
k-th border seen (following the perspective); one k times as long as wide, which no single
Sudoku is, is cut evenly when its lines cannot be counted. Grids a millimetre apart show a
doubled line where they meet: failing a count of whole grids, lines are counted again with
such a pair closed into one. Each part is then judged as a grid of its own. (Grids of
different sizes make an outline with inward corners: see pipeline.vision.inward_corners.)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage
from sudoku_batch.pipeline.vision.outlines import candidate_quads
from sudoku_batch.pipeline.vision.quad import order_corners
from sudoku_batch.pipeline.vision.warp import warp

# A Sudoku is square; an outline whose sides differ by about a whole factor (within this share
# of it) is that many grids in a row.
ROW_RATIO_SLACK = 0.1
# Grids printed against each other along one side of an outline, at most.
MAX_GRIDS_A_SIDE = 4
# An outline warped to its own shape for counting its lines has its longer side this long at
# most (about 18 px a cell of four 9x9s in a row), and the longer side at its page size
# below that.
COUNT_SIDE = 640
# Bands of rows (columns) a line must be dark in all of.
BANDS = 16
# A line is a peak of the darkness profile rising this share of the way from the paper to the
# darkest line...
LINE_SHARE = 0.12
# ...and the highest peak within half of the narrowest cell: a board holds at most this many
# (two 25x25 grids across it), and a line blurred into a double peak is one line...
NARROWEST_CELLS = 50
# ...whose position is the middle of where it is within this share of its height...
PEAK_TOP = 0.9
# ...and a heavy (box) line holds at least this much more ink than the median line...
HEAVY_WEIGHT = 1.5
# ...than the median of the lines within this many of it on either side (of these 9 lines,
# at most 3 are heavy when a box is 3 cells wide or more, so their median is a thin line).
NEARBY_LINES = 4
# Lines (and heavy lines) of a grid are evenly spaced within this share of their spacing.
EVEN_SPACING = 0.2
# Two borders are seen as one doubled line up to this share of a cell apart, and the paper
# under such a line is the lightest of the profile within this share of a cell around it.
DOUBLED_GAP_CELLS = 0.4
DOUBLED_LINE_CELLS = 1.0
# Lines are counted again with this share of an outline's side shown around it when they do not
# count as whole grids: less than half a cell of four grids in a row.
COUNT_MARGIN = 0.01
# (Three grids in a row show 19 lines or more: a 16x16 shows 17, and a stroke or two of digits.)
MANY_LINES = 20
# Grids of different sizes side by side (a 9x9 and a column of smaller grids) meet at a line
# across the whole outline, each piece at least this share of it...
MIN_PIECE_SHARE = 0.2
# ...whose crossing lines, looked at over this share of the outline's side on either side of
# it, mostly do not line up: those of a grid's own line cross it. Lines within this share of
# the finer spacing of each other line up.
CROSSING_STRIP = 0.04
SAME_LINE = 0.1
# With cells of one size, a smaller grid's lines may line up with most of the larger's by
# chance; its heavy lines (box lines and borders) do not, when each side shows at least a
# grid's two borders and a box line between.
MIN_HEAVY_CROSSING = 3
# A piece's outline is looked for with this share of the outline's side around it; one within
# this many pixels of that margin's edge goes on past it.
PIECE_MARGIN = 0.25
PIECE_EDGE_PX = 3


def parts_of_outline(gray: np.ndarray, corners: np.ndarray) -> list[np.ndarray]:
    """The grids of an outline (TL, TR, BR, BL) that shows no lattice when warped square, as
    outlines on the page; [] when it holds no grids printed against each other. It is warped
    to its own shape, where its cells are square again, and its lines are counted."""
    size = _sized(*_width_and_height(corners), COUNT_SIDE)
    from_unit_square = _from_unit_square(corners)
    parts = _grid_parts(_warped(gray, from_unit_square, size, 0.0), from_unit_square)
    if parts is None:
        parts = _grid_parts_with_margin(gray, from_unit_square, size)
    return parts or _in_a_row(corners)


def parts_of_board(page: np.ndarray, board: BoardImage) -> list[np.ndarray]:
    """The grids of a board surveyed on a grey ``page`` that holds several printed against
    each other (in rows and columns of one size), as outlines on the page; [] when it is one
    grid."""
    pixels = board.pixels
    gray = pixels if pixels.ndim == 2 else cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    side = gray.shape[0]
    from_unit_square = np.linalg.inv(board.homography) @ np.diag([side, side, 1.0])
    parts = _grid_parts(gray, from_unit_square)
    if parts is None:
        parts = _grid_parts_with_margin(page, from_unit_square, (side, side))
    return parts or _in_a_row(board.location.corners)


def parts_across_a_border(gray: np.ndarray, corners: np.ndarray) -> list[np.ndarray]:
    """The outlines of the two pieces of an outline (TL, TR, BR, BL) that holds grids of
    different sizes side by side, cut at the line where they meet (each piece may hold more
    grids); [] when no such line is seen. A grid's own lines cross each other; at the border
    between two grids, the lines of one do not go on as the other's."""
    size = _sized(*_width_and_height(corners), COUNT_SIDE)
    from_unit_square = _from_unit_square(corners)
    warped = _warped(gray, from_unit_square, size, 0.0)
    for axis in (0, 1):
        # Axis 0: a line down the outline, between grids side by side.
        line = _border_between_grids(warped if axis == 0 else warped.T)
        if line is not None:
            return _pieces(gray, from_unit_square, size, axis, np.array(line) / size[axis])
    return []


def _sized(width: float, height: float, longest: int) -> tuple[int, int]:
    """An outline's size warped to its own shape, its longer side ``longest`` at most."""
    scale = min(1.0, longest / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _pieces(
    gray: np.ndarray,
    from_unit_square: np.ndarray,
    size: tuple[int, int],
    axis: int,
    line: np.ndarray,
) -> list[np.ndarray]:
    """The outlines of the two pieces of an outline on either side of a ``line`` (its two
    edges, shares of the outline's side along ``axis``). The outline is not the pieces' (its
    four corners cut off the corners of the larger grid where it bends around the smaller):
    each piece's own outline is looked for on the outline warped with a margin around it,
    without the line, which runs on past the smaller piece."""
    shown = 1 + 2 * PIECE_MARGIN
    warped = _warped(gray, from_unit_square, size, PIECE_MARGIN)
    along = warped if axis == 0 else warped.T
    start, end = np.round((line + PIECE_MARGIN) / shown * along.shape[1]).astype(int)
    to_page = (
        from_unit_square
        @ np.array([[shown, 0, -PIECE_MARGIN], [0, shown, -PIECE_MARGIN], [0, 0, 1]])
        @ np.diag([1 / size[0], 1 / size[1], 1.0])
    )
    middle = (start + end) / 2
    outlines = []
    # The side along the line (TR and BR of the first piece, TL and BL of the second) is put
    # back on its middle.
    for (lo, hi), on_line in (((0, start - 1), [1, 2]), ((end + 1, along.shape[1]), [0, 3])):
        piece = along[:, lo : hi + 1]
        # The largest outline in the piece that does not reach the edge of the margin (one
        # that does goes on past it: a grid the outline was cut through, or the page's edge).
        found = [q for q in candidate_quads(piece) if not _reaches_edge(q, piece.shape, on_line)]
        if not found:
            return []
        quad = found[0] + (lo, 0)
        quad[on_line, 0] = middle
        if axis == 1:
            quad = quad[:, ::-1]
        on_page = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float64), to_page)
        outlines.append(order_corners(on_page.reshape(4, 2).astype(np.float32)))
    return outlines


def _reaches_edge(quad: np.ndarray, shape: tuple[int, ...], keep: list[int]) -> bool:
    """Whether a quad (TL, TR, BR, BL) found on an image of ``shape`` reaches its edge, but
    for the side through corners ``keep`` (where the piece was cut off)."""
    height, width = shape[:2]
    edge = PIECE_EDGE_PX
    x, y = quad[:, 0], quad[:, 1]
    outer_x = x[[i for i in range(4) if i not in keep]]
    return bool(
        y.min() <= edge
        or y.max() >= height - 1 - edge
        or outer_x.min() <= edge
        or outer_x.max() >= width - 1 - edge
    )


def _border_between_grids(gray: np.ndarray) -> tuple[int, int] | None:
    """The first and last column of a line down the whole of ``gray`` (where it is darker
    than half its peak) where the lines across on its left mostly do not line up with those
    on its right, or None."""
    height, width = gray.shape
    profile = _line_darkness(gray, 0)
    rise, lines = _peaks(profile, round(width / NARROWEST_CELLS))
    if len(lines) < 3:
        return None
    strip = max(2, round(CROSSING_STRIP * width))
    narrowest = round(height / NARROWEST_CELLS)
    # A grid's border is a heavy line (or two a little apart, over paper a cell wide).
    wide = _rise(profile, round(float(np.median(np.diff(lines)))))[lines]
    heavy = wide >= HEAVY_WEIGHT * float(np.median(wide))
    inside = (lines > MIN_PIECE_SHARE * width) & (lines < (1 - MIN_PIECE_SHARE) * width)
    for x in lines[heavy & inside]:
        gap = max(2, strip // 4)  # clear of the line itself
        left_profile = _line_darkness(gray[:, x - strip : x - gap], 1)
        right_profile = _line_darkness(gray[:, x + gap : x + strip], 1)
        left = _peaks(left_profile, narrowest)[1]
        right = _peaks(right_profile, narrowest)[1]
        if len(left) < 3 or len(right) < 3:
            continue
        spacing = min(float(np.median(np.diff(left))), float(np.median(np.diff(right))))
        if _share_lined_up(left, right, spacing) < 0.5 or _heavy_apart(
            (left_profile, left), (right_profile, right), spacing
        ):
            darker = rise >= rise[x] / 2
            first, last = int(x), int(x)
            while first > 0 and darker[first - 1]:
                first -= 1
            while last < width - 1 and darker[last + 1]:
                last += 1
            return first, last
    return None


def _share_lined_up(lines: np.ndarray, others: np.ndarray, spacing: float) -> float:
    """The share of ``lines`` with one of ``others`` within SAME_LINE of the spacing."""
    distance = np.abs(lines[:, None] - others[None, :]).min(axis=1)
    return float((distance <= SAME_LINE * spacing).mean())


def _heavy_apart(
    left: tuple[np.ndarray, np.ndarray], right: tuple[np.ndarray, np.ndarray], spacing: float
) -> bool:
    """Whether the heavy lines crossing on either side (each a profile and its lines) mostly
    do not line up, each side showing at least MIN_HEAVY_CROSSING of them."""
    heavy = []
    for profile, lines in (left, right):
        wide = _rise(profile, round(spacing))[lines]
        heavy.append(lines[wide >= HEAVY_WEIGHT * float(np.median(wide))])
    if min(len(h) for h in heavy) < MIN_HEAVY_CROSSING:
        return False
    return (
        min(_share_lined_up(heavy[0], heavy[1], spacing), _share_lined_up(*heavy[::-1], spacing))
        < 0.5
    )


def _in_a_row(corners: np.ndarray) -> list[np.ndarray]:
    """For lines too faint or blurred to count: a Sudoku is square, so an outline k times as
    long as it is wide holds k grids in a row, cut evenly; else []."""
    width, height = _width_and_height(corners)
    for k in range(2, MAX_GRIDS_A_SIDE + 1):
        cuts = np.linspace(0, 1, k + 1)
        if abs(width / height / k - 1) <= ROW_RATIO_SLACK:
            return _parts(_from_unit_square(corners), cuts, [0.0, 1.0])
        if abs(height / width / k - 1) <= ROW_RATIO_SLACK:
            return _parts(_from_unit_square(corners), [0.0, 1.0], cuts)
    return []


def _width_and_height(corners: np.ndarray) -> tuple[float, float]:
    """The mean lengths of an outline's top and bottom, and of its sides."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return float(sides[0] + sides[2]) / 2, float(sides[1] + sides[3]) / 2


def _grid_parts(
    gray: np.ndarray, from_unit_square: np.ndarray, margin: float = 0.0
) -> list[np.ndarray] | None:
    """The grids in an outline warped to ``gray`` (by the inverse of ``from_unit_square``,
    scaled, with ``margin`` of its side around it), split where their borders are; [] when
    it holds one grid, None when its evenly spaced lines do not count as whole grids."""
    profiles = [_line_darkness(gray, 0), _line_darkness(gray, 1)]
    short = False  # evenly spaced lines that do not count as whole grids
    counted = functools.cache(lambda axis, doubled: _lines_and_box(profiles[axis], doubled))
    # Lines as printed first; failing a count of whole grids, with doubled lines as one, along
    # either axis or both (grids may be a little apart one way and share borders the other).
    for doubled in itertools.product((False, True), repeat=2):
        across, down = counted(0, doubled[0]), counted(1, doubled[1])
        if across is None or down is None:
            continue
        # A Sudoku's box is as many cells wide as there are boxes down it.
        box_cells = across[1] * down[1]
        cuts = [_borders(across[0], box_cells), _borders(down[0], box_cells)]
        if cuts[0] is None or cuts[1] is None:
            short = True
            continue
        if len(cuts[0]) == len(cuts[1]) == 2:
            return []
        height, width = gray.shape
        # Borders are cut where they are seen, the outline's own sides too when the warp
        # shows a margin around them; without one, they stay where they were fitted (their
        # lines are cut in half by the warp's edge).
        shown = 1 + 2 * margin
        xs = cuts[0] / width * shown - margin
        ys = cuts[1] / height * shown - margin
        if not margin:
            xs[[0, -1]], ys[[0, -1]] = (0.0, 1.0), (0.0, 1.0)
        return _parts(from_unit_square, xs, ys)
    # Counting again costs a warp: only worth it when evenly spaced lines were seen, or more
    # lines than any single grid but a 25x25 shows.
    seen = max(len(_peaks(p, round(len(p) / NARROWEST_CELLS))[1]) for p in profiles)
    return None if short or seen > MANY_LINES else []


def _grid_parts_with_margin(
    page: np.ndarray, from_unit_square: np.ndarray, size: tuple[int, int]
) -> list[np.ndarray] | None:
    """``_grid_parts`` of the outline warped with a margin around it: an outline fitted a
    little off its outer border (a union of grids bends more than one grid) leaves that
    border's line half outside it, unseen, and its cells then count one short."""
    return _grid_parts(
        _warped(page, from_unit_square, size, COUNT_MARGIN), from_unit_square, COUNT_MARGIN
    )


def _warped(
    page: np.ndarray, from_unit_square: np.ndarray, size: tuple[int, int], margin: float
) -> np.ndarray:
    """The unit square, widened by ``margin`` on each side, warped from the page to ``size``."""
    shown = 1 + 2 * margin
    to_unit = np.array([[1 / shown, 0, margin / shown], [0, 1 / shown, margin / shown], [0, 0, 1]])
    to_warp = np.diag([size[0], size[1], 1.0]) @ to_unit @ np.linalg.inv(from_unit_square)
    return warp(page, to_warp, size)


def _borders(lines: np.ndarray, box_cells: int) -> np.ndarray | None:
    """The grid borders among one axis' lines, one every ``box_cells`` cells, or None when
    the cells do not make whole grids."""
    cells = len(lines) - 1
    if cells % box_cells or not 1 <= cells // box_cells <= MAX_GRIDS_A_SIDE:
        return None
    return lines[::box_cells].astype(np.float64)


def _line_darkness(gray: np.ndarray, axis: int) -> np.ndarray:
    """Per column (``axis`` 0; per row, 1), its darkness in the band of rows (columns) where
    it is lightest, give or take a few columns: a printed line is dark in every band, a
    digit's stroke only in a few."""
    bands = np.array_split(gray, BANDS, axis=axis)
    means = np.array(
        [cv2.reduce(band, axis, cv2.REDUCE_AVG, dtype=cv2.CV_32F).ravel() for band in bands]
    )
    # A line a little askew in the warp (a rough outline) moves across bands by a pixel or two.
    drift = max(3, round(means.shape[1] / NARROWEST_CELLS / 2)) | 1
    return 255.0 - cv2.erode(means, np.ones((1, drift), np.uint8)).max(axis=0)


def _lines_and_box(profile: np.ndarray, doubled: bool) -> tuple[np.ndarray, int] | None:
    """Along one axis of a board, its lines and the cells between its heavy lines, or None
    when its lines are not evenly spaced with evenly spaced heavy lines among them. With
    ``doubled`` lines (two grids' borders a little apart), each is closed into one wide line
    and the paper is taken from a window of a cell, so that it rises above it."""
    narrowest = round(len(profile) / NARROWEST_CELLS)
    rise, lines = _peaks(profile, narrowest)
    if len(lines) < 3:
        return None
    cell = float(np.median(np.diff(lines)))
    wide = round(DOUBLED_LINE_CELLS * cell)
    if not doubled:
        # Two borders a little apart, blurred into one band wider than the narrowest cell,
        # rise little above that window's paper: their ink is weighed again over a whole
        # cell, or they would not count as heavy lines.
        found = _even_lines(rise, lines)
        if found is None and wide > narrowest:
            found = _even_lines(_rise(profile, wide), lines)
        return found
    if wide <= narrowest:
        return None
    gap = max(1, round(DOUBLED_GAP_CELLS * cell))
    # Beyond its ends the profile goes on as it ends: closing would otherwise take a little
    # paper between an outer border and the warp's edge for a gap between two borders, and
    # that border would no longer rise above its paper (a line cut by the edge stays a line).
    column = np.pad(profile.astype(np.float32), gap, mode="edge")[:, None]
    closed = cv2.morphologyEx(column, cv2.MORPH_CLOSE, np.ones((gap, 1), np.uint8))[gap:-gap, 0]
    return _even_lines(*_peaks(closed, wide), doubled=True)


def _even_lines(
    rise: np.ndarray, lines: np.ndarray, doubled: bool = False
) -> tuple[np.ndarray, int] | None:
    """Of the peaks of a profile's ``rise``, its lines and the cells between its heavy
    lines, or None when they are not evenly spaced with evenly spaced heavy lines among them.
    With ``doubled`` lines, a cell beside a heavy line may be wider by the gap between two
    borders (its peak lies anywhere between them)."""
    if len(lines) < 3:
        return None
    cell = float(np.median(np.diff(lines)))
    heavy_rise = HEAVY_WEIGHT * float(np.median(rise[lines]))
    # A digit's stroke that is dark in every band (a column of ones) is a peak between two
    # lines: of two peaks too close together, the fainter goes. Two heavy ones are the borders
    # of two grids printed a little apart, a doubled line: it is one line, between them.
    while len(short := np.flatnonzero(np.diff(lines) < (1 - EVEN_SPACING) * cell)):
        first = short[0]
        pair = lines[first : first + 2]
        if rise[pair].min() >= heavy_rise:
            lines = np.delete(lines, first + 1)
            lines[first] = round(pair.mean())
        else:
            lines = np.delete(lines, first + int(rise[pair[0]] >= rise[pair[1]]))
    if len(lines) < 3:
        return None
    lines = _missed_lines_put_back(lines, cell)
    spacing = np.diff(lines)
    slack = np.full(len(spacing), EVEN_SPACING * cell)
    if doubled:
        beside_heavy = rise[lines] >= heavy_rise
        wider = (beside_heavy[:-1] | beside_heavy[1:]) & (spacing > cell)
        slack[wider] = DOUBLED_GAP_CELLS * cell
    if (np.abs(spacing - cell) > slack).any():
        return None
    reach = max(1, round(cell / 4))
    summed = np.concatenate([[0.0], np.cumsum(rise)])
    weights = (
        summed[np.minimum(lines + reach + 1, len(rise))] - summed[np.maximum(lines - reach, 0)]
    )
    # Heavy against all the lines first: against the lines nearby, a box 2 cells wide (a
    # 6x6's) shows as many heavy lines as thin ones and their median is a heavy line's.
    for median in (float(np.median(weights)), _nearby_median(weights)):
        heavy = lines[weights >= HEAVY_WEIGHT * median]
        if len(heavy) < 3:
            continue
        box = np.diff(heavy) / cell
        per_box = round(float(np.median(box)))
        if per_box >= 2 and np.abs(box - per_box).max() <= EVEN_SPACING * per_box:
            return lines, per_box
    return None


def _nearby_median(weights: np.ndarray) -> np.ndarray:
    """Per line, the median weight of the lines within NEARBY_LINES of it: grids printed
    against each other may differ in line weight, and a photo's light falls off across
    them, so a box line may be heavier only than the lines around it."""
    return np.array(
        [
            np.median(weights[max(0, i - NEARBY_LINES) : i + NEARBY_LINES + 1])
            for i in range(len(weights))
        ]
    )


def _missed_lines_put_back(lines: np.ndarray, cell: float) -> np.ndarray:
    """The lines with one put back in the middle of each two cells without one: a thin line
    faint in one band (a shadow's edge, a photo's blur) is missed, and a grid has no cell
    twice as wide as the others."""
    spacing = np.diff(lines)
    missed = np.abs(spacing - 2 * cell) <= EVEN_SPACING * cell
    middles = (lines[:-1][missed] + lines[1:][missed]) // 2
    return np.sort(np.concatenate([lines, middles]))


def _peaks(profile: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """The profile's rise above the paper (its opening over ``window`` pixels) and the peaks
    of that rise that may be lines."""
    rise = _rise(profile, window)
    top = float(rise.max())
    if top <= 0:
        return rise, np.zeros(0, np.int64)
    # Padded, so that a border cut in half by the board's edge is a peak too.
    padded = np.pad(rise, 1)
    peak = (rise >= LINE_SHARE * top) & (rise >= padded[:-2]) & (rise > padded[2:])
    lines = _apart(np.flatnonzero(peak), rise, len(profile) / NARROWEST_CELLS / 2)
    # Two peaks on one flat top are one line.
    return rise, np.unique(np.array([_middle(rise, x) for x in lines], np.int64))


def _rise(profile: np.ndarray, window: int) -> np.ndarray:
    """The profile above the paper around it (its opening over ``window`` pixels): a photo's
    light falls off across the board."""
    column = profile.astype(np.float32)[:, None]
    kernel = np.ones((max(3, window), 1), np.uint8)
    return (column - cv2.morphologyEx(column, cv2.MORPH_OPEN, kernel))[:, 0]


def _middle(rise: np.ndarray, x: int) -> int:
    """The middle of the top of the peak at ``x``: a line's profile is flat across its width
    (and across the drift between bands), and the peak may be at either end of it."""
    top = PEAK_TOP * rise[x]
    left, right = x, x
    while left > 0 and rise[left - 1] >= top:
        left -= 1
    while right < len(rise) - 1 and rise[right + 1] >= top:
        right += 1
    return (left + right) // 2


def _apart(peaks: np.ndarray, height: np.ndarray, gap: float) -> np.ndarray:
    """The peaks left when each one closer than ``gap`` to a higher one is dropped."""
    kept: list[int] = []
    for x in peaks[np.argsort(-height[peaks], kind="stable")]:
        if all(abs(int(x) - k) >= gap for k in kept):
            kept.append(int(x))
    return np.array(sorted(kept))


def _from_unit_square(corners: np.ndarray) -> np.ndarray:
    """The homography from the unit square onto an outline's corners (TL, TR, BR, BL)."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    return cv2.getPerspectiveTransform(unit, corners.astype(np.float32))


def _parts(
    from_unit_square: np.ndarray, xs: Sequence[float], ys: Sequence[float]
) -> list[np.ndarray]:
    """The outlines on the page of the unit square cut at ``xs`` and ``ys`` (each from 0 to
    1), in reading order."""
    parts = []
    for y0, y1 in itertools.pairwise(ys):
        for x0, x1 in itertools.pairwise(xs):
            unit = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float64)
            parts.append(cv2.perspectiveTransform(unit, from_unit_square)[0].astype(np.float32))
    return parts
