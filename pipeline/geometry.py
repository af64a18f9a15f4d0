"""The geometry of a Sudoku grid: its size, its units and each cell's units.

A unit is a set of cells that holds every digit once (fewer when some of its cells are
blocked): the N rows, the N columns, the N regions, and extra units a variant adds (the two
diagonals of diagonal Sudoku). Regions are the p x q boxes of a classic grid, or the irregular
regions of a jigsaw, given as an N x N grid of region numbers. Every solver, propagator,
checker, rater and canonical form takes its units from here, so a new variant is a new way to
build a ``Geometry``.

Units are numbered rows 0..N-1, columns N..2N-1, regions 2N..3N-1, then the extra units; cells
are numbered r*N+c. Blocked cells belong to the puzzle (its givens), not the geometry.
Region numbers are normalised to 0..N-1 in reading order of each region's first cell, so two
descriptions of the same partition compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sudoku_batch.pipeline.errors import InvalidRegions

Regions = tuple[tuple[int, ...], ...]  # N x N region numbers

CLASSIC, JIGSAW, DIAGONAL = "classic", "jigsaw", "diagonal"
ROW, COLUMN, BOX, REGION, DIAGONAL_UNIT = "row", "column", "box", "region", "diagonal"


@dataclass(frozen=True)
class Unit:
    kind: str  # ROW, COLUMN, BOX (a classic region), REGION (a jigsaw's) or DIAGONAL_UNIT
    name: str  # for people: "row 3", "box 2", "region 5", "main diagonal"
    cells: tuple[int, ...]  # cell numbers r*N+c, in reading order


@dataclass(frozen=True)
class Geometry:
    """The units of one grid; ``box`` is (box_rows, box_cols) when the regions are the classic
    boxes, None for a jigsaw."""

    size: int
    regions: Regions
    box: tuple[int, int] | None
    diagonals: bool
    units: tuple[Unit, ...]
    cell_units: tuple[tuple[int, ...], ...]  # per cell, the indices of its units, ascending

    @property
    def variant(self) -> str:
        return variant_name(self.box is None, self.diagonals)


def variant_name(jigsaw: bool, diagonals: bool) -> str:
    """``classic``, ``jigsaw``, ``diagonal`` or ``jigsaw+diagonal``."""
    parts = [JIGSAW] * jigsaw + [DIAGONAL] * diagonals
    return "+".join(parts) or CLASSIC


def box_regions(box_rows: int, box_cols: int) -> Regions:
    """The region numbers of the p x q boxes (already in reading order of first cells)."""
    n = box_rows * box_cols
    per_band = n // box_cols
    return tuple(
        tuple((r // box_rows) * per_band + c // box_cols for c in range(n)) for r in range(n)
    )


def normalise_regions(regions: Regions | list[list[int]], size: int) -> Regions:
    """``regions`` renumbered 0..N-1 in reading order of each region's first cell. Raises
    ``InvalidRegions`` unless they are N x N and make N connected regions of N cells each."""
    grid = [list(row) for row in regions]
    if len(grid) != size or any(len(row) != size for row in grid):
        raise InvalidRegions(f"the regions of a {size}x{size} grid need {size} rows of {size}")
    number: dict[object, int] = {}
    for row in grid:
        for label in row:
            number.setdefault(label, len(number))
    if len(number) != size:
        raise InvalidRegions(f"a {size}x{size} grid needs {size} regions, not {len(number)}")
    out = tuple(tuple(number[label] for label in row) for row in grid)
    cells: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for r, row in enumerate(out):
        for c, region in enumerate(row):
            cells[region].append((r, c))
    for members in cells:
        r, c = members[0]
        if len(members) != size:
            raise InvalidRegions(
                f"the region of r{r + 1}c{c + 1} has {len(members)} cells, not {size}"
            )
        if len(_reachable(out, members[0])) != size:
            raise InvalidRegions(f"the region of r{r + 1}c{c + 1} is not connected")
    return out


def _reachable(regions: Regions, start: tuple[int, int]) -> set[tuple[int, int]]:
    """The cells of ``start``'s region reachable from it through side-adjacent cells."""
    n, label = len(regions), regions[start[0]][start[1]]
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n and (rr, cc) not in seen and regions[rr][cc] == label:
                seen.add((rr, cc))
                todo.append((rr, cc))
    return seen


@lru_cache(maxsize=64)
def build_geometry(
    box_rows: int, box_cols: int, regions: Regions | None, diagonals: bool
) -> Geometry:
    """The geometry of a grid of boxes ``box_rows`` x ``box_cols``, or of ``regions``
    (normalised, see ``normalise_regions``) when given, with the two diagonals as extra units
    when ``diagonals``."""
    n = box_rows * box_cols
    jigsaw = regions is not None
    layout = regions if regions is not None else box_regions(box_rows, box_cols)
    units = [Unit(ROW, f"row {r + 1}", tuple(r * n + c for c in range(n))) for r in range(n)]
    units += [Unit(COLUMN, f"column {c + 1}", tuple(r * n + c for r in range(n))) for c in range(n)]
    kind = REGION if jigsaw else BOX
    members: list[list[int]] = [[] for _ in range(n)]
    for r in range(n):
        for c in range(n):
            members[layout[r][c]].append(r * n + c)
    units += [Unit(kind, f"{kind} {k + 1}", tuple(cells)) for k, cells in enumerate(members)]
    if diagonals:
        units.append(Unit(DIAGONAL_UNIT, "main diagonal", tuple(i * n + i for i in range(n))))
        units.append(
            Unit(DIAGONAL_UNIT, "anti-diagonal", tuple(i * n + n - 1 - i for i in range(n)))
        )
    of_cell: list[list[int]] = [[] for _ in range(n * n)]
    for u, unit in enumerate(units):
        for cell in unit.cells:
            of_cell[cell].append(u)
    return Geometry(
        n,
        layout,
        None if jigsaw else (box_rows, box_cols),
        diagonals,
        tuple(units),
        tuple(tuple(u) for u in of_cell),
    )
