"""Synthetic scenes for the vision tests, drawn with synth/ so every corner and cell is known."""

from __future__ import annotations

import numpy as np

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth.grid_image import RenderedGrid, render_grid
from sudoku_batch.synth.photo import Photo, PhotoStyle, photograph
from sudoku_batch.synth.puzzles import random_puzzle


def rendered(
    shape: GridShape,
    rng: np.random.Generator,
    *,
    cell_px: int = 44,
    blocked: int = 0,
    shaded: int = 0,
    fill: float = 0.35,
) -> RenderedGrid:
    """A clean grid with about ``fill`` of its cells given, and some blocked or shaded cells."""
    n = shape.size
    holes = int(round(n * n * (1 - fill))) - blocked
    puzzle = random_puzzle(shape, rng, holes=holes, blocked=blocked).puzzle
    shade = frozenset((int(r), int(c)) for r, c in rng.integers(0, n, (shaded, 2)))
    return render_grid(puzzle, cell_px=cell_px, shaded=shade, rng=rng)


def photo_of(grid: RenderedGrid, rng: np.random.Generator, **style: object) -> Photo:
    return photograph(grid.image, grid.corners, rng, PhotoStyle(**style))


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The worst corner's distance from the truth, as a share of the board's mean side."""
    side = float(np.linalg.norm(truth - np.roll(truth, -1, axis=0), axis=1).mean())
    return float(np.linalg.norm(found - truth, axis=1).max()) / side
