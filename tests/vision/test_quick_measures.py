"""The quick measures that stand in for slower numpy ones give the same numbers exactly: a
board's results must not depend on which of them ran."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.vision.cells import _neighbourhood_median
from sudoku_batch.pipeline.vision.gridlines import _row_means
from sudoku_batch.pipeline.vision.lattice import _line_sums
from sudoku_batch.pipeline.vision.levels import SMALL_IMAGE, grey_level_each, grey_levels


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(12)


def test_grey_level_each_matches_grey_levels(rng: np.random.Generator) -> None:
    page = rng.integers(0, 256, (700, 700), dtype=np.uint8)
    # Cells of a few shapes (a lattice's rounding), and one too large to rank by partition.
    cells = [
        page[r : r + 40 + r % 3, c : c + 41 + c % 2]
        for r in range(0, 600, 47)
        for c in range(0, 600, 53)
    ]
    cells.append(page[: SMALL_IMAGE // 100 + 10, :101])
    for percent in (1, 3, 75, 90):
        assert grey_level_each(cells, percent) == [grey_levels(c, (percent,))[0] for c in cells]


@pytest.mark.parametrize("n", [4, 6, 9, 16])
def test_neighbourhood_median_matches_nanmedian(rng: np.random.Generator, n: int) -> None:
    values = rng.random((n, n)) * 255
    padded = np.pad(values, 1, mode="constant", constant_values=np.nan)
    stacked = np.stack([padded[dy : dy + n, dx : dx + n] for dy in range(3) for dx in range(3)])
    assert np.array_equal(_neighbourhood_median(values), np.nanmedian(stacked, axis=0))


def test_line_sums_and_strip_means_match_numpy(rng: np.random.Generator) -> None:
    darkness = rng.integers(0, 256, (640, 600), dtype=np.uint8)
    strokes = (rng.random((640, 600)) > 0.6).astype(np.uint8) * 255
    for image in (darkness, strokes):
        assert np.array_equal(
            _line_sums(image, horizontal=True), image.sum(axis=1, dtype=np.float64)
        )
        assert np.array_equal(
            _line_sums(image, horizontal=False), image.sum(axis=0, dtype=np.float64)
        )
    # Strips of a board's strokes and of their transpose (vertical lines), as traced.
    for strip in (strokes[:, 17:48], strokes.T[:, 5:30]):
        assert np.array_equal(_row_means(strip), strip.mean(axis=1))
