"""Outlines on a page that may be Sudoku grids: roughly quadrilateral shapes made of long
straight strokes, found without knowing yet what grid (if any) they hold."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from sudoku_batch.pipeline.vision.inward_corners import pieces_at_inward_corners
from sudoku_batch.pipeline.vision.levels import grey_levels
from sudoku_batch.pipeline.vision.noise import noise_sigma
from sudoku_batch.pipeline.vision.quad import order_corners

# A board covers at least this share of the page (a book page of 6 boards gives each ~8%; a
# 25x25 grid smaller than this could not be read anyway).
MIN_AREA_SHARE = 0.01
# Outline simplification tolerances (share of the perimeter), tried in turn until a quad
# appears: bent page edges and rounded corners need the looser ones.
APPROX_TOLERANCES = (0.02, 0.035, 0.05)
# The quad's shape, loosely: perspective from a handheld phone makes squares into trapezoids.
MAX_SIDE_RATIO = 2.0
# ...and its width to its height: up to four grids printed against each other in a row make
# one outline (see pipeline.vision.touching), photographed at a slant.
MAX_ASPECT = 4.5
# The outline must fill its convex hull: a grid is a solid block of lines, a text paragraph or
# an L-shaped layout is not.
MIN_SOLIDITY = 0.85
# Holes of the line mesh that can be cells: bigger than a letter's counter, smaller than a
# tenth of the page, and at most this elongated: perspective makes squares oblong, and a faint
# cell line missing from the mesh joins two or three cells into one hole.
MIN_CELL_AREA = 40
MAX_CELL_SHARE = 0.1
MAX_CELL_ASPECT = 4.0
# ...and filling this share of their bounding rectangle (a digit's stroke touching a cell line
# notches it a little; the counters of letters are rounder, ragged holes far less).
MIN_CELL_FILL = 0.7
# Lines between cells are bridged up to this width (pixels of the search copy): a thick box
# line, thickened by the search, but less than the gap between two grids on a book page.
CELL_BRIDGE_PX = 15
# A mesh's border broken from one crossing to the next leaves a gap of up to a cell: a tenth
# of the outline's side, about a 9x9's cell. Grids of different sizes printed against each
# other leave notches in their outline of at least 0.4 of its side (a 4x4 beside a 9x9, see
# find_boards.MIN_AREA_OF_LARGEST), far wider.
BORDER_BREAK_SHARE = 0.1
# A page whose noise spreads wider than the threshold's offset below the local mean speckles
# a sixth of its paper as ink, and the thickened specks join the lines into blobs; blurred
# over this many pixels, the noise falls about threefold while a line keeps its darkness, so
# its shapes are tried too (phone photos in ordinary light stay below the offset).
DENOISE_PX = 1.0


def candidate_quads(gray: np.ndarray) -> list[np.ndarray]:
    """Rough corners (TL, TR, BR, BL) of roughly quadrilateral shapes that may be grids,
    largest first.

    Three kinds of shape are tried: the outlines of the meshes of long horizontal and vertical
    strokes (a grid's lines), the blocks of cells that those meshes enclose, and the outlines of
    all the ink. The mesh survives a faint or cut-off border; the cell blocks survive text,
    rules and page edges printed against the grid, which bend a mesh's outline but add no cells
    to it; the plain ink outline survives a grid turned too far for its lines to be horizontal
    and vertical strokes.
    """
    offset = _offset(gray)
    quads = _quads_of_ink(gray, _ink(gray, offset))
    # A page whose noise spreads wider than the ink's offset (see DENOISE_PX): the denoised
    # page's shapes come after the page's own, which are found as before.
    if noise_sigma(gray) > offset:
        denoised = cv2.GaussianBlur(gray, (0, 0), DENOISE_PX)
        quads += _quads_of_ink(gray, _ink(denoised, _offset(denoised), without_steps=True))
    return quads


def _quads_of_ink(gray: np.ndarray, ink: np.ndarray) -> list[np.ndarray]:
    """``candidate_quads`` of the page's ink."""
    mesh = _line_mesh(ink)
    contours, hierarchy = cv2.findContours(mesh, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    cells = _cell_blocks(mesh.shape, contours, hierarchy[0])
    blocks, _ = cv2.findContours(cells, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outlines, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    min_area = MIN_AREA_SHARE * gray.shape[0] * gray.shape[1]
    meshes = [
        c
        for c, h in zip(contours, hierarchy[0], strict=True)
        if h[3] < 0 and cv2.contourArea(c) >= min_area
    ]
    # A faint border broken on a rough scan lets a mesh's outline run into its cells.
    bridged = [_bridged(c, _stroke_length(mesh.shape)) for c in meshes if not _solid(c)]
    # Grids of different sizes printed against each other make one outline with inward
    # corners; its pieces cut there are tried as well.
    pieces = [
        piece
        for contour in [*blocks, *meshes, *bridged]
        if cv2.contourArea(contour) >= min_area
        for piece in pieces_at_inward_corners(contour, min_area)
    ]
    return _quads([*contours, *bridged, *blocks, *outlines, *pieces], min_area)


def _solid(contour: np.ndarray) -> bool:
    return cv2.contourArea(contour) >= MIN_SOLIDITY * cv2.contourArea(cv2.convexHull(contour))


def _bridged(contour: np.ndarray, stroke: int) -> np.ndarray:
    """A mesh's outline with the breaks in its border bridged, where it ran into the cells:
    a run of ink shorter than a stroke falls in the opening that makes the mesh, so a break
    is up to a stroke long; on a turned page a faint line's runs fall short of a stroke more
    often, and the border breaks between its crossings, up to a cell
    (``BORDER_BREAK_SHARE``). No grid's outline has an inlet that narrow."""
    x, y, w, h = cv2.boundingRect(contour)
    stroke = max(stroke, int(BORDER_BREAK_SHARE * min(w, h)))
    shape_of = np.zeros((h + 2 * stroke, w + 2 * stroke), np.uint8)
    cv2.drawContours(shape_of, [contour], -1, 255, cv2.FILLED, offset=(stroke - x, stroke - y))
    closed = cv2.morphologyEx(shape_of, cv2.MORPH_CLOSE, np.ones((stroke, stroke), np.uint8))
    outer, _ = cv2.findContours(
        closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x - stroke, y - stroke)
    )
    return max(outer, key=cv2.contourArea)


def _quads(contours: Sequence[np.ndarray], min_area: float) -> list[np.ndarray]:
    """The plausible quadrilaterals of the contours that are large and solid, largest first."""
    quads: list[tuple[float, np.ndarray]] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        hull = cv2.convexHull(contour)
        if area < MIN_SOLIDITY * cv2.contourArea(hull):
            continue
        corners = _quad_of(hull)
        if corners is not None and _plausible(corners):
            quads.append((cv2.contourArea(corners), corners))
    quads.sort(key=lambda item: -item[0])
    return [corners for _, corners in quads]


def _cell_blocks(
    shape: tuple[int, ...], contours: Sequence[np.ndarray], hierarchy: np.ndarray
) -> np.ndarray:
    """The holes of the mesh that look like cells, merged across the lines between them."""
    page_area = shape[0] * shape[1]
    cells = np.zeros(shape[:2], np.uint8)
    for contour, (_, _, _, parent) in zip(contours, hierarchy, strict=True):
        if parent < 0:
            continue  # an outer boundary, not a hole
        area = cv2.contourArea(contour)
        if not MIN_CELL_AREA <= area <= MAX_CELL_SHARE * page_area:
            continue
        _, (w, h), _ = cv2.minAreaRect(contour)
        # Cells are filled, squarish quadrilaterals; holes in letters and torn lines are not.
        if (
            min(w, h) <= 0
            or max(w, h) > MAX_CELL_ASPECT * min(w, h)
            or area < MIN_CELL_FILL * w * h
        ):
            continue
        cv2.drawContours(cells, [contour], -1, 255, cv2.FILLED)
    # Closing bridges the lines between neighbouring cells (even thick box lines) while
    # keeping the block's outer edge where the cells end.
    bridge = cv2.getStructuringElement(cv2.MORPH_RECT, (CELL_BRIDGE_PX, CELL_BRIDGE_PX))
    return cv2.morphologyEx(cells, cv2.MORPH_CLOSE, bridge)


def _ink(gray: np.ndarray, offset: float, without_steps: bool = False) -> np.ndarray:
    """Dark print (255): ``offset`` (``_offset``) below the local mean, thickened so that thin
    faint lines hold together."""
    side = max(gray.shape)
    block = max(15, (side // 25) | 1)
    ink = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, offset
    )
    if without_steps:
        # The dark side of a shadow's edge is darker than the mean around it (which takes in
        # the lit side) along the whole edge, a long stroke joining the grid's mesh to the
        # shadow's outline. Print is darker than most of what is around it too (its median,
        # the paper's level where lines and digits cover under half the window); the
        # shadow's side is not.
        paper = cv2.medianBlur(gray, block)
        ink = cv2.bitwise_and(ink, cv2.compare(cv2.subtract(paper, gray), offset, cv2.CMP_GE))
    # Thickened, a thin line tilted by up to ~8 degrees still runs straight for a stroke length.
    return cv2.dilate(ink, np.ones((3, 3), np.uint8))


def _offset(gray: np.ndarray) -> float:
    """How far below the local mean a pixel must be to count as ink. A low offset keeps faint
    cell lines; the specks it lets through are not long strokes."""
    low, high = grey_levels(gray, (5, 95))
    return max(3.0, 0.05 * (high - low))


def _line_mesh(ink: np.ndarray) -> np.ndarray:
    """The page's long horizontal and vertical strokes (255), without text and digits.

    A grid is one connected mesh of such strokes even when its border is cut off by the frame
    or faint, and text printed against it (captions, headings) falls away.
    """
    stroke = _stroke_length(ink.shape)
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, stroke), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((stroke, 1), np.uint8))
    return cv2.bitwise_or(across, down)


def _stroke_length(shape: tuple[int, ...]) -> int:
    """The shortest run of ink (pixels) that the mesh keeps as a line."""
    return max(15, max(shape) // 40)


def _quad_of(hull: np.ndarray) -> np.ndarray | None:
    perimeter = cv2.arcLength(hull, closed=True)
    for tolerance in APPROX_TOLERANCES:
        approx = cv2.approxPolyDP(hull, tolerance * perimeter, closed=True)
        if len(approx) == 4:
            return order_corners(approx.reshape(4, 2).astype(np.float32))
    return None


def _plausible(corners: np.ndarray) -> bool:
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    if sides.min() <= 0:
        return False
    width, height = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    return (
        max(sides[0], sides[2]) / min(sides[0], sides[2]) <= MAX_SIDE_RATIO
        and max(sides[1], sides[3]) / min(sides[1], sides[3]) <= MAX_SIDE_RATIO
        and max(width, height) / min(width, height) <= MAX_ASPECT
        and cv2.isContourConvex(corners.astype(np.float32))
    )
