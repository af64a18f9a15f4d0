"""The shape of a Sudoku and its givens, independent of how they were read."""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_batch.pipeline.errors import InvalidPuzzle

# A cell value: 1..N is a digit, 0 is an empty (playable) cell, None is a blocked cell that
# takes no digit at all. Rows of these make a Grid.
Cell = int | None
Grid = tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True)
class GridShape:
    """An N x N Sudoku with boxes of ``box_rows`` x ``box_cols`` cells (N = box_rows * box_cols)."""

    box_rows: int
    box_cols: int

    def __post_init__(self) -> None:
        if self.box_rows < 1 or self.box_cols < 1:
            raise InvalidPuzzle(f"box shape {self.box_rows}x{self.box_cols} is not positive")

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
