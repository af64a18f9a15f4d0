"""Where a grid's region borders and diagonals are drawn: the heavy cell edges of a regions
array, shared by every drawing of a solved grid (renders, the answer-key PDF)."""

from __future__ import annotations

from collections.abc import Sequence

# A cell edge as two lattice points (row, col) at its ends, 0..N each.
Edge = tuple[tuple[int, int], tuple[int, int]]


def region_borders(regions: Sequence[Sequence[int]]) -> list[Edge]:
    """Every cell edge between two regions, and the frame: the edges drawn heavy."""
    n = len(regions)
    edges: list[Edge] = []
    for r in range(n):
        for c in range(n + 1):
            # The vertical edge left of cell (r, c).
            if c in (0, n) or regions[r][c - 1] != regions[r][c]:
                edges.append(((r, c), (r + 1, c)))
    for c in range(n):
        for r in range(n + 1):
            if r in (0, n) or regions[r - 1][c] != regions[r][c]:
                edges.append(((r, c), (r, c + 1)))
    return edges


def diagonal_lines(size: int) -> list[Edge]:
    """The two diagonals corner to corner, as lattice points."""
    return [((0, 0), (size, size)), ((0, size), (size, 0))]


def marks_diagonals(variant: str) -> bool:
    """Whether a variant name (``classic``, ``jigsaw``, ``diagonal``, ``jigsaw+diagonal``)
    makes the diagonals units."""
    return "diagonal" in variant.split("+")
