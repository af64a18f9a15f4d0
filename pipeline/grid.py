"""The shape of a Sudoku and its givens, independent of how they were read."""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_batch.pipeline.errors import InvalidPuzzle
from sudoku_batch.pipeline.geometry import (
    Geometry,
    Regions,
    box_regions,
    build_geometry,
    normalise_regions,
)

# A cell value: 1..N is a digit, 0 is an empty (playable) cell, None is a blocked cell that
# takes no digit at all. Rows of these make a Grid.
Cell = int | None
Grid = tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True)
class GridShape:
    """An N x N Sudoku (N = box_rows * box_cols): classic, with boxes of ``box_rows`` x
    ``box_cols`` cells, or a jigsaw when ``regions`` (N x N region numbers) is given, and with
    the two diagonals as extra units when ``diagonals``. Its units are ``geometry``
    (``pipeline.geometry``). A jigsaw keeps the conventional box shape for N as its box shape
    (what the lattice was measured as); its regions are the units. ``regions`` is normalised
    (reading order), and None when it is just the boxes, so equal grids compare equal."""

    box_rows: int
    box_cols: int
    regions: Regions | None = None
    diagonals: bool = False

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1:
            raise InvalidPuzzle(f"box shape {self.box_rows}x{self.box_cols} is not positive")
        if self.regions is not None:
            regions = normalise_regions(self.regions, self.size)
            boxes = regions == box_regions(self.box_rows, self.box_cols)
            object.__setattr__(self, "regions", None if boxes else regions)

    @classmethod
    def jigsaw(cls, regions: Regions | list[list[int]], diagonals: bool = False) -> GridShape:
        """A grid of irregular ``regions`` (N x N region numbers or letters, any labels)."""
        nominal = cls.nominal(len(regions))
        return cls(nominal.box_rows, nominal.box_cols, tuple(map(tuple, regions)), diagonals)

    @classmethod
    def nominal(cls, size: int) -> GridShape:
        """The box shape a jigsaw of ``size`` keeps: the conventional one, one row of N for a
        prime N (which has none)."""
        try:
            return cls.square(size)
        except InvalidPuzzle:
            return cls(1, size)

    @property
    def geometry(self) -> Geometry:
        return build_geometry(self.box_rows, self.box_cols, self.regions, self.diagonals)

    @property
    def variant(self) -> str:
        """``classic``, ``jigsaw``, ``diagonal`` or ``jigsaw+diagonal``."""
        return self.geometry.variant

    @property
    def size(self) -> int:
        return self.box_rows * self.box_cols

    @classmethod
    def square(cls, size: int) -> GridShape:
        """The conventional box shape for a size: 9 -> 3x3, 6 -> 2x3, 12 -> 3x4, 8 -> 2x4."""
        root = int(round(size**0.5))
        if root * root == size:
            return cls(root, root)
        # Books print rectangular boxes wider than tall; pick the most nearly square factoring.
        for rows in range(int(size**0.5), 0, -1):
            if size % rows == 0 and rows > 1:
                return cls(rows, size // rows)
        raise InvalidPuzzle(f"size {size} has no box shape (it is prime)")

    def box_of(self, row: int, col: int) -> int:
        return (row // self.box_rows) * self.box_rows + col // self.box_cols


@dataclass(frozen=True)
class Puzzle:
    """A puzzle to solve: its shape and its givens (0 = empty, None = blocked)."""

    shape: GridShape
    givens: Grid

    def __post_init__(self) -> None:
        n = self.shape.size
        if len(self.givens) != n or any(len(row) != n for row in self.givens):
            raise InvalidPuzzle(f"a {n}x{n} puzzle needs {n} rows of {n} cells")
        for r, row in enumerate(self.givens):
            for c, value in enumerate(row):
                if value is not None and not 0 <= value <= n:
                    raise InvalidPuzzle(f"cell r{r + 1}c{c + 1} holds {value}, outside 1..{n}")

    @property
    def size(self) -> int:
        return self.shape.size

    @classmethod
    def from_rows(cls, rows: list[list[Cell]], shape: GridShape | None = None) -> Puzzle:
        grid = tuple(tuple(row) for row in rows)
        return cls(shape or GridShape.square(len(grid)), grid)
