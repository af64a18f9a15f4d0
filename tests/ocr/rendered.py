"""Given-cell crops drawn by synth, as the cells stage would hand them to an engine."""

from __future__ import annotations

import numpy as np

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.synth.degrade import blur, sensor_noise
from sudoku_batch.synth.grid_image import Labels, render_grid

CELL_PX = 56


def rendered_crops(
    values: list[int],
    *,
    size: int = 9,
    font: str | None = None,
    labels: Labels = "numbers",
    sigma: float = 0.0,
    noise: float = 0.0,
    seed: int = 0,
) -> list[np.ndarray]:
    """Grayscale crops of ``values`` printed in the first cells of an N x N grid (row-major),
    degraded by Gaussian blur ``sigma`` and sensor noise ``noise``, cut inside the lines."""
    rows = [[0] * size for _ in range(size)]
    for i, value in enumerate(values):
        rows[i // size][i % size] = value
    rng = np.random.default_rng(seed)
    grid = render_grid(
        Puzzle(GridShape.square(size), tuple(tuple(r) for r in rows)),
        cell_px=CELL_PX,
        font=font,
        labels=labels,
        rng=rng,
    )
    image = sensor_noise(blur(grid.image, sigma), rng, noise)
    gray = image.mean(axis=2).astype(np.uint8)
    x0, y0 = (int(v) for v in grid.corners[0])
    inset = CELL_PX // 10
    crops = []
    for i in range(len(values)):
        top = y0 + (i // size) * CELL_PX + inset
        left = x0 + (i % size) * CELL_PX + inset
        side = CELL_PX - 2 * inset
        crops.append(gray[top : top + side, left : left + side])
    return crops
