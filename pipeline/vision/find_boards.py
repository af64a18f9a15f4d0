"""Find every Sudoku board on a page.

Candidates are roughly quadrilateral shapes made of long straight strokes (see
``pipeline.vision.outlines``). Each is warped and must show a Sudoku lattice (evenly spaced
lines of a Sudoku size), which rejects text, photos and rules. Its corners are then fitted to its
printed border, and the grid must end there (else it is a box of a larger grid). A crossword
(solid cells and no thicker box lines) or a dark panel is rejected from its cells, and a fully
inked grid beside partly filled ones (a printed solution) or a grid much smaller than the
page's largest is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, BoardLocation, CellKind
from sudoku_batch.pipeline.errors import LatticeNotFound
from sudoku_batch.pipeline.vision.border import fit_border, grid_continues_outside
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.pipeline.vision.gridlines import fit_to_lines
from sudoku_batch.pipeline.vision.outlines import candidate_quads
from sudoku_batch.pipeline.vision.rectify import survey_board
from sudoku_batch.pipeline.vision.touching import (
    parts_across_a_border,
    parts_of_board,
    parts_of_outline,
)

# Candidates are looked for on a copy of the page with its longer side at most this many
# pixels: plenty to place corners within a fraction of a cell, and quick.
SEARCH_SIDE = 1000
# Outlines centred in a board and within this ratio of its area are that board again.
SAME_GRID_AREA = 0.7
# Rounds of fitting corners to the printed border, and the corner movement (page pixels)
# below which they have settled.
MAX_BORDER_FITS = 3
SETTLED_PX = 1.0
# Corners fitted to the lines that moved by less than this share of a cell leave every cell's
# interior (trimmed by more than that, see pipeline.vision.cells) as it was.
SMALL_MOVE_CELLS = 0.1
# A grid with this share of its cells inked is a printed solution when other grids on the
# page are not (puzzles give at most about half their cells; a little slack for misreads).
FILLED_SHARE = 0.9
# Grids printed together on a page are of similar size (a book's slots differ by at most a
# factor of ~2 in area); one under this share of the largest grid's area is a side feature,
# unless printed against a large grid with cells over this share of its cells' area.
MIN_AREA_OF_LARGEST = 0.35
# The smallest Sudoku's cells a side.
MIN_SMALL_GRID_CELLS = 4
# A Sudoku is square: seen in perspective, one side is at most this many times the other (an
# outline longer than that holds grids printed against each other, or none).
MAX_GRID_ASPECT = 2.0
# An outline of grids of different sizes is cut where two meet, and each piece again, at most
# this many times over (four grids).
MAX_CUTS = 3
# Sudoku variants block a few cells; a region with more than this share of solid cells is a
# dark panel, a photo or a crossword that happened to show a lattice.
MAX_BLOCKED_SHARE = 0.2
# Without thicker box lines, a grid is a crossword when more than this share of its cells is
# solid (crosswords black out a sixth or more; Sudoku variants block a few percent).
MAX_BLOCKED_WITHOUT_BOXES = 0.08


@dataclass(frozen=True)
class _Found:
    location: BoardLocation
    inked: float  # share of cells given or solid
    blocked: float  # share of cells solid
    box_lines: bool
    cells_a_side: int
    on_border: bool = True  # False: kept as found, its border fit having gone astray
    # Cut from an outline of several grids printed against each other: its sides at the cuts
    # were counted on the union's warp and the others follow the union's outline, which a
    # bent page puts off a grid's own border by up to half a cell.
    cut: bool = False

    @property
    def quality(self) -> tuple[bool, bool, float, bool]:
        """How well an outline reads its grid, to choose between outlines of one grid: an
        outline off the grid misses its box lines, reads a dark margin as solid cells, or
        could not be fitted to its border; one of the grid's own border is better than a cut."""
        return (self.box_lines, self.on_border, -self.blocked, not self.cut)


BEST_QUALITY = (True, True, 0.0, True)


def find_boards(pixels: np.ndarray) -> list[BoardLocation]:
    """Every Sudoku board on a BGR page, in reading order; [] when there is none. Each
    location carries the lattice surveyed at its corners, which rectifying reuses."""
    # Grey is all that judging candidates needs, and it warps three times faster than colour.
    gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, SEARCH_SIDE / max(pixels.shape[:2]))
    search = gray
    if scale < 1:
        # Area averaging keeps a hairline of a 300 or 600 dpi page as a faint but whole line;
        # sampling (linear) drops it in most rows.
        search = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    found: list[_Found] = []
    split: list[np.ndarray] = []  # outlines found to hold grids printed against each other
    for rough in candidate_quads(search):
        outline = rough / scale
        if any(_same_outline(corners, outline) for corners in split):
            continue
        rival = next(
            (i for i, f in enumerate(found) if _same_outline(f.location.corners, outline)), None
        )
        if rival is None and (any(_holds(f, outline) for f in found) or _made_of(found, outline)):
            continue
        # Another outline of a board found already is only worth reading if it may read better.
        if rival is not None and found[rival].quality == BEST_QUALITY:
            continue
        candidates = _judged_grids(gray, outline)
        if len(candidates) == 1 and rival is not None:
            if candidates[0].quality > found[rival].quality:
                found[rival] = candidates[0]
        elif len(candidates) == 1:
            found.append(candidates[0])
        elif candidates:
            # Grids printed against each other replace what was taken for one grid of them all.
            found = [f for i, f in enumerate(found) if i != rival] + candidates
            split.append(outline)
    return reading_order(_without_solutions(_without_frames(found)))


def _judged_grids(gray: np.ndarray, outline: np.ndarray, cuts: int = 0) -> list[_Found]:
    """The boards an outline holds: one, or each of the grids printed against each other
    in it (see pipeline.vision.touching), or none. ``cuts``: how many times the outline was
    cut already where grids of different sizes meet (a piece so cut may hold more of them)."""
    if cuts and cuts < MAX_CUTS and (pieces := parts_across_a_border(gray, outline)):
        return _judged_pieces(gray, pieces, cuts + 1)
    grids = _judged_of_one_size(gray, outline)
    if len(grids) == 1 and not cuts and _may_hold_a_smaller_grid(grids[0]):
        # A 9x9 with smaller grids along one side may read as one grid of them all.
        return _judged_pieces(gray, parts_across_a_border(gray, outline), 1) or grids
    if grids or cuts:
        return grids
    # Grids of different sizes side by side: each piece holds one or more grids.
    return _judged_pieces(gray, parts_across_a_border(gray, outline), 1)


def _may_hold_a_smaller_grid(found: _Found) -> bool:
    """Whether a grid is oblong enough to be a union of grids of different sizes, one along
    a side of the other: a smaller Sudoku has at least 4 cells a side, each at least
    sqrt(MIN_AREA_OF_LARGEST) as long as the larger grid's, so it lengthens that side by at
    least that share of its cells."""
    least = MIN_SMALL_GRID_CELLS * np.sqrt(MIN_AREA_OF_LARGEST) / found.cells_a_side
    return _aspect(found.location.corners) > 1 + least


def _judged_of_one_size(gray: np.ndarray, outline: np.ndarray) -> list[_Found]:
    """The boards an outline holds, one or several of one size printed against each other,
    or none."""
    try:
        board = survey_board(gray, BoardLocation(outline.astype(np.float32)))
    except LatticeNotFound:
        parts = parts_of_outline(gray, outline)
    else:
        # Lines are counted on the board fitted to its border: a rough outline cuts some off.
        fitted = _fitted_to_border(gray, board)
        parts = parts_of_board(gray, fitted)
        if not parts:
            if _aspect(fitted.location.corners) > MAX_GRID_ASPECT:
                return []
            judged = _judged(gray, board, fitted)
            return [] if judged is None else [judged]
    grids = []
    for part in parts:
        try:
            board = survey_board(gray, BoardLocation(part))
        except LatticeNotFound:
            return []
        judged = _judged(gray, board, _fitted_to_border(gray, board), among_grids=True)
        # Without box lines a part shows no sign of being a whole grid, not a cut through one.
        if judged is None or not judged.box_lines:
            return []
        grids.append(replace(judged, cut=True))
    return grids


def _judged_pieces(gray: np.ndarray, pieces: list[np.ndarray], cuts: int) -> list[_Found]:
    """The boards of each piece of an outline cut where grids of different sizes meet, or
    none unless every piece is made of boards (covering about its area)."""
    grids: list[_Found] = []
    for piece in pieces:
        judged = _judged_grids(gray, piece, cuts)
        covered = sum(cv2.contourArea(f.location.corners) for f in judged)
        if not SAME_GRID_AREA <= covered / cv2.contourArea(piece) <= 1 / SAME_GRID_AREA:
            return []
        grids += judged
    return grids if grids and _cells_alike(grids) else []


def _cells_alike(grids: list[_Found]) -> bool:
    """Whether grids printed against each other have cells of about one size: each cell's
    area over MIN_AREA_OF_LARGEST of another's (a 4x4 beside a 9x9, see _printed_against).
    A piece cut through a grid may read as a grid of its box lines, its cells a box wide."""
    cells = [_mean_side(f.location.corners) / f.cells_a_side for f in grids]
    return min(cells) ** 2 >= MIN_AREA_OF_LARGEST * max(cells) ** 2


def _judged(
    gray: np.ndarray, board: BoardImage, fitted: BoardImage, among_grids: bool = False
) -> _Found | None:
    """The board a surveyed outline holds, ``fitted`` to its border, or None if it holds no
    Sudoku. A grid printed against others (``among_grids``) has their lines going on past
    its border."""
    on_border = among_grids or not grid_continues_outside(gray, fitted)
    if on_border:
        board = fitted
    elif fitted is board or grid_continues_outside(gray, board):
        return None
    # Else fitting took a line inside the grid for its border (digits printed against the
    # border thicken the lines next to it): the outline as found is the better one, though
    # another outline of the grid that fits its border is better still.
    location, board = _fitted_to_lines(gray, board)
    kinds = [cell.kind for cell in classify_cells(board)]
    if _not_a_sudoku(board, kinds):
        return None
    return _Found(
        _surveyed(gray, location, board),
        inked=1 - kinds.count(CellKind.EMPTY) / len(kinds),
        blocked=kinds.count(CellKind.BLOCKED) / len(kinds),
        box_lines=board.lattice.box_lines,
        cells_a_side=board.shape.size,
        on_border=on_border,
    )


def _same_outline(corners: np.ndarray, outline: np.ndarray) -> bool:
    """Whether an outline is centred in another (a board's) and of about its size."""
    if not _inside(outline.mean(axis=0), corners):
        return False
    ratio = cv2.contourArea(outline) / cv2.contourArea(corners)
    return SAME_GRID_AREA <= ratio <= 1 / SAME_GRID_AREA


def _holds(board: _Found, outline: np.ndarray) -> bool:
    """Whether a smaller outline centred in a board is one of its boxes or cells. A grid
    without box lines may be a frame or table around the real board, so it holds nothing."""
    return board.box_lines and _inside(outline.mean(axis=0), board.location.corners)


def _made_of(found: list[_Found], outline: np.ndarray) -> bool:
    """Whether an outline is made of several boards found already, centred in it and
    covering about its area: part of a union of grids printed against each other that was
    split already (its centre may lie in the gap between two of them, in no board)."""
    inside = [f for f in found if _inside(f.location.corners.mean(axis=0), outline)]
    covered = sum(cv2.contourArea(f.location.corners) for f in inside)
    ratio = covered / cv2.contourArea(outline)
    return len(inside) > 1 and SAME_GRID_AREA <= ratio <= 1 / SAME_GRID_AREA


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
        # the first reading was a different structure and is judged as such. Unless the border
        # holds a finer grid with box lines where the outline read a coarser one without: an
        # outline taking in the back page's print showing through reads a lattice of neither
        # page's grid, its wide cells spanning lines of both. (A block of a grid's cells read
        # without box lines may gain them at its border, its size the same: that stays.)
        finer_with_boxes = (
            refit.lattice.box_lines
            and not board.lattice.box_lines
            and refit.shape.size > board.shape.size
        )
        if not finer_with_boxes and (
            refit.shape != board.shape or refit.lattice.box_lines != board.lattice.box_lines
        ):
            break
        board = refit
        if moved < SETTLED_PX:
            break
    return board


def _fitted_to_lines(pixels: np.ndarray, board: BoardImage) -> tuple[BoardLocation, BoardImage]:
    """The board's corners fitted to the crossings of all its printed lines, and the board to
    judge its grid by: re-surveyed there when they moved by more than a small share of a cell
    (and reading the same grid, else the board and its corners as they were), the board as it
    was when they moved less (its cells read the same, and surveying again costs a warp)."""
    corners = fit_to_lines(pixels, board)
    if corners is None:
        return board.location, board
    location = BoardLocation(corners)
    cell = _mean_side(board.location.corners) / board.shape.size
    if np.abs(corners - board.location.corners).max() < SMALL_MOVE_CELLS * cell:
        return location, board
    try:
        refit = survey_board(pixels, location)
    except LatticeNotFound:
        return board.location, board
    if refit.shape != board.shape or refit.lattice.box_lines != board.lattice.box_lines:
        return board.location, board
    return location, refit


def _surveyed(gray: np.ndarray, location: BoardLocation, board: BoardImage) -> BoardLocation:
    """The location with the lattice surveyed at exactly its corners: the judged board's when
    it was warped there, else measured again (corners that moved a little keep the judged
    board, whose lattice then sits up to a tenth of a cell off)."""
    if board.location is location or np.array_equal(board.location.corners, location.corners):
        return BoardLocation(location.corners, board.lattice)
    try:
        return BoardLocation(location.corners, survey_board(gray, location).lattice)
    except LatticeNotFound:
        return location


def _aspect(corners: np.ndarray) -> float:
    """An outline's longer mean side over its shorter."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    width, height = sides[0] + sides[2], sides[1] + sides[3]
    return float(max(width, height) / min(width, height))


def _mean_side(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1).mean())


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
    solution in a newspaper corner, often cut off by the photo's edge and so not full),
    unless printed against a large one with cells about as large (a 4x4 beside a 9x9)."""
    if not found:
        return []
    areas = [cv2.contourArea(f.location.corners) for f in found]
    is_large = [area >= MIN_AREA_OF_LARGEST * max(areas) for area in areas]
    large = [f for f, big in zip(found, is_large, strict=True) if big]
    kept = [
        f
        for f, big in zip(found, is_large, strict=True)
        if big or any(_printed_against(f, g) for g in large)
    ]
    puzzles = [f.location for f in kept if f.inked < FILLED_SHARE]
    return puzzles if puzzles else [f.location for f in kept]


def _printed_against(small: _Found, large: _Found) -> bool:
    """Whether a grid with box lines has a corner within one of its cells of a larger grid's
    border, and cells at least MIN_AREA_OF_LARGEST as large as that grid's (a piece of a
    neighbouring grid cut off by the photo's edge reads as a small grid without box lines)."""
    if not small.box_lines:
        return False
    cell = _mean_side(small.location.corners) / small.cells_a_side
    large_cell = _mean_side(large.location.corners) / large.cells_a_side
    if cell**2 < MIN_AREA_OF_LARGEST * large_cell**2:
        return False
    border = large.location.corners.astype(np.float32)
    return any(
        abs(cv2.pointPolygonTest(border, (float(x), float(y)), True)) <= cell
        for x, y in small.location.corners
    )


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
