"""Find every Sudoku board on a page.

Candidates are roughly quadrilateral shapes made of long straight strokes (see
``_candidate_quads``). Each is warped and must show a Sudoku lattice (evenly spaced lines of a
Sudoku size), which rejects text, photos and rules. Its corners are then fitted to its printed
border. A crossword (solid cells and no thicker box lines) or a dark panel is rejected from its
cells, and a fully inked grid beside partly filled ones (a printed solution) or a grid much
smaller than the page's largest is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from pipeline.board import BoardImage, BoardLocation, CellKind
from pipeline.border import fit_border
from pipeline.cells import classify_cells
from pipeline.errors import LatticeNotFound
from pipeline.levels import grey_levels
from pipeline.quad import order_corners
from pipeline.rectify import survey_board

# Candidates are looked for on a copy of the page with its longer side at most this many
# pixels: plenty to place corners within a fraction of a cell, and quick.
SEARCH_SIDE = 1000
# A board covers at least this share of the page (a book page of 6 boards gives each ~8%; a
# 25x25 grid smaller than this could not be read anyway).
MIN_AREA_SHARE = 0.01
# Outline simplification tolerances (share of the perimeter), tried in turn until a quad
# appears: bent page edges and rounded corners need the looser ones.
APPROX_TOLERANCES = (0.02, 0.035, 0.05)
# The quad's shape, loosely: perspective from a handheld phone makes squares into trapezoids.
MAX_SIDE_RATIO = 2.0
# The outline must fill its convex hull: a grid is a solid block of lines, a text paragraph or
# an L-shaped layout is not.
MIN_SOLIDITY = 0.85
# Holes of the line mesh that can be cells: bigger than a letter's counter, smaller than a
# tenth of the page, and at most this elongated: perspective makes squares oblong, and a faint
# cell line missing from the mesh joins two or three cells into one hole.
MIN_CELL_AREA = 40
MAX_CELL_SHARE = 0.1
MAX_CELL_ASPECT = 4.0
# Lines between cells are bridged up to this width (pixels of the search copy): a thick box
# line, thickened by the search, but less than the gap between two grids on a book page.
CELL_BRIDGE_PX = 15
# Outlines centred in a board and at least this share of its area are that board again.
SAME_GRID_AREA = 0.7
# Rounds of fitting corners to the printed border, and the corner movement (page pixels)
# below which they have settled.
MAX_BORDER_FITS = 3
SETTLED_PX = 1.0
# A grid with this share of its cells inked is a printed solution when other grids on the
# page are not (puzzles give at most about half their cells; a little slack for misreads).
FILLED_SHARE = 0.9
# Grids printed together on a page are of similar size (a book's slots differ by at most a
# factor of ~2 in area); one under this share of the largest grid's area is a side feature.
MIN_AREA_OF_LARGEST = 0.35
# Sudoku variants block a few cells; a region with more than this share of solid cells is a
# dark panel, a photo or a crossword that happened to show a lattice.
MAX_BLOCKED_SHARE = 0.2
# Without thicker box lines, a grid is a crossword when more than this share of its cells is
# solid (crosswords black out a sixth or more; Sudoku variants block a few percent).
MAX_BLOCKED_WITHOUT_BOXES = 0.08


@dataclass(frozen=True)
class _Found:
    location: BoardLocation
    inked: float  # share of cells given (or solid)
    box_lines: bool


def find_boards(pixels: np.ndarray) -> list[BoardLocation]:
    """Every Sudoku board on a BGR page, in reading order; [] when there is none."""
    # Grey is all that judging candidates needs, and it warps three times faster than colour.
    gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, SEARCH_SIDE / max(pixels.shape[:2]))
    search = gray
    if scale < 1:
        search = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    found: list[_Found] = []
    for rough in _candidate_quads(search):
        if any(_hides(f, rough / scale) for f in found):
            continue
        try:
            board = survey_board(gray, BoardLocation((rough / scale).astype(np.float32)))
        except LatticeNotFound:
            continue
        board = _fitted_to_border(gray, board)
        kinds = [cell.kind for cell in classify_cells(board)]
        if _not_a_sudoku(board, kinds):
            continue
        inked = 1 - kinds.count(CellKind.EMPTY) / len(kinds)
        found.append(_Found(board.location, inked, board.lattice.box_lines))
    return reading_order(_without_solutions(_without_frames(found)))


def _hides(board: _Found, candidate: np.ndarray) -> bool:
    """Whether a board found already accounts for a candidate centred inside it: as its boxes
    or cells, or as the same grid outlined another way. A grid without box lines may be a
    frame or table around the real board, so it hides only outlines of about its own size."""
    if not _inside(candidate.mean(axis=0), board.location.corners):
        return False
    if board.box_lines:
        return True
    return cv2.contourArea(candidate) >= SAME_GRID_AREA * cv2.contourArea(board.location.corners)


def _without_frames(found: list[_Found]) -> list[_Found]:
    """Drop grids without box lines that enclose a board with them."""
    return [
        f
        for f in found
        if f.box_lines
        or not any(
            g.box_lines and _inside(g.location.corners.mean(axis=0), f.location.corners)
            for g in found
        )
    ]


def _fitted_to_border(pixels: np.ndarray, board: BoardImage) -> BoardImage:
    """The board re-surveyed with its corners on its printed border, as long as it still reads.

    Each fit can only move a side by a fraction of a cell, so a badly skewed candidate takes a
    few rounds to settle.
    """
    for _ in range(MAX_BORDER_FITS):
        corners = fit_border(pixels, board)
        if corners is None:
            break
        moved = float(np.abs(corners - board.location.corners).max())
        try:
            refit = survey_board(pixels, BoardLocation(corners))
        except LatticeNotFound:
            break
        # Moving the corners onto the border must not change what grid it is; if it does,
        # the first reading was a different structure and is judged as such.
        if refit.shape != board.shape or refit.lattice.box_lines != board.lattice.box_lines:
            break
        board = refit
        if moved < SETTLED_PX:
            break
    return board


def _candidate_quads(gray: np.ndarray) -> list[np.ndarray]:
    """Rough corners (TL, TR, BR, BL) of roughly quadrilateral shapes that may be grids,
    largest first.

    Two kinds of shape are tried: the outlines of the meshes of long strokes (a grid's lines)
    and the blocks of cells that those meshes enclose. The first survives a faint or cut-off
    border; the second survives text, rules and page edges printed against the grid, which
    bend a mesh's outline but add no cells to it.
    """
    mesh = _line_mesh(gray)
    contours, hierarchy = cv2.findContours(mesh, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    cells = _cell_blocks(mesh.shape, contours, hierarchy[0])
    blocks, _ = cv2.findContours(cells, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = MIN_AREA_SHARE * gray.shape[0] * gray.shape[1]
    quads: list[tuple[float, np.ndarray]] = []
    for contour in [*contours, *blocks]:
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
        if min(w, h) <= 0 or max(w, h) > MAX_CELL_ASPECT * min(w, h) or area < 0.7 * w * h:
            continue
        cv2.drawContours(cells, [contour], -1, 255, cv2.FILLED)
    # Closing bridges the lines between neighbouring cells (even thick box lines) while
    # keeping the block's outer edge where the cells end.
    bridge = cv2.getStructuringElement(cv2.MORPH_RECT, (CELL_BRIDGE_PX, CELL_BRIDGE_PX))
    return cv2.morphologyEx(cells, cv2.MORPH_CLOSE, bridge)


def _line_mesh(gray: np.ndarray) -> np.ndarray:
    """The page's long horizontal and vertical strokes (255), without text and digits.

    A grid is one connected mesh of such strokes even when its border is cut off by the frame
    or faint, and text printed against it (captions, headings) falls away.
    """
    side = max(gray.shape)
    block = max(15, (side // 25) | 1)
    low, high = grey_levels(gray, (5, 95))
    # A low offset keeps faint cell lines; the specks it lets through are not long strokes.
    offset = max(3.0, 0.05 * (high - low))
    ink = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, offset
    )
    # Thickened, a thin line tilted by up to ~8 degrees still runs straight for a stroke length.
    ink = cv2.dilate(ink, np.ones((3, 3), np.uint8))
    stroke = max(15, side // 40)
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, stroke), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((stroke, 1), np.uint8))
    return cv2.bitwise_or(across, down)


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
        and max(width, height) / min(width, height) <= MAX_SIDE_RATIO
        and cv2.isContourConvex(corners.astype(np.float32))
    )


def _inside(point: np.ndarray, corners: np.ndarray) -> bool:
    return cv2.pointPolygonTest(corners.astype(np.float32), tuple(map(float, point)), False) >= 0


def _not_a_sudoku(board: BoardImage, kinds: list[CellKind]) -> bool:
    """A crossword (solid cells among uniform lines) or a dark panel that showed a lattice."""
    blocked = kinds.count(CellKind.BLOCKED) / len(kinds)
    if not board.lattice.box_lines:
        return blocked > MAX_BLOCKED_WITHOUT_BOXES
    return blocked > MAX_BLOCKED_SHARE


def _without_solutions(found: list[_Found]) -> list[BoardLocation]:
    """Drop what is printed beside the puzzles: fully inked grids (solutions) when some grid
    on the page is a puzzle, and grids much smaller than the largest one (yesterday's
    solution in a newspaper corner, often cut off by the photo's edge and so not full)."""
    if not found:
        return []
    largest = max(cv2.contourArea(f.location.corners) for f in found)
    kept = [
        f for f in found if cv2.contourArea(f.location.corners) >= MIN_AREA_OF_LARGEST * largest
    ]
    puzzles = [f.location for f in kept if f.inked < FILLED_SHARE]
    return puzzles if puzzles else [f.location for f in kept]


def reading_order(locations: list[BoardLocation]) -> list[BoardLocation]:
    """Rows of boards top to bottom, each row left to right.

    Boards share a row when their vertical spans overlap by more than half of the shorter one,
    which tolerates the tilt of a photographed page.
    """
    rows: list[list[BoardLocation]] = []
    for location in sorted(locations, key=lambda b: float(b.corners[:, 1].min())):
        top, bottom = location.corners[:, 1].min(), location.corners[:, 1].max()
        for row in rows:
            r_top, r_bottom = row[0].corners[:, 1].min(), row[0].corners[:, 1].max()
            overlap = min(bottom, r_bottom) - max(top, r_top)
            if overlap > 0.5 * min(bottom - top, r_bottom - r_top):
                row.append(location)
                break
        else:
            rows.append([location])
    return [b for row in rows for b in sorted(row, key=lambda b: float(b.corners[:, 0].mean()))]
