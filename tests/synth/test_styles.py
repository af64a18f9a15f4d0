"""synth.styles draws what its styles say: dashed cell lines are broken, box lines and the
border are not; shaded boxes alternate."""

from __future__ import annotations

import numpy as np

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.synth.styles import PrintStyle, random_puzzles, styled_page


def _page(style: PrintStyle):
    rng = np.random.default_rng(3)
    return styled_page(
        random_puzzles(GridShape(3, 3), 1, rng, fill=0.0), style, dpi=150, columns=1, rng=rng
    )


def _column(page, line: int) -> np.ndarray:
    """The page's pixels down the centre of a grid's vertical line ``line`` (0..9), within
    the grid."""
    corners = page.grids[0].corners
    x = int(round(corners[0, 0] + line * (corners[1, 0] - corners[0, 0]) / 9))
    top, bottom = int(corners[0, 1]) + 3, int(corners[3, 1]) - 3
    return page.image[top:bottom, x].min(axis=1)


def test_dashed_style_breaks_cell_lines_only():
    page = _page(PrintStyle(thin_pt=1.0, thick_pt=2.0, dashed=True))
    cell_line, box_line, border = _column(page, 4), _column(page, 3), _column(page, 0)
    assert np.mean(cell_line > 200) > 0.25  # gaps of paper
    assert np.mean(box_line > 200) < 0.05  # only where horizontal cell lines cross it
    assert np.mean(border > 200) == 0


def test_solid_style_has_unbroken_cell_lines():
    page = _page(PrintStyle(thin_pt=1.0, thick_pt=2.0))
    assert np.mean(_column(page, 4) > 200) == 0


def test_shaded_boxes_alternate():
    page = _page(PrintStyle(shaded_boxes=True))
    shaded = page.grids[0].shaded
    assert (0, 3) in shaded and (0, 0) not in shaded and (3, 3) not in shaded
    assert len(shaded) == 4 * 9


def test_doubled_style_splits_box_lines_in_two():
    page = _page(PrintStyle(thin_pt=1.0, thick_pt=3.0, doubled=True))
    corners = page.grids[0].corners
    x = int(round(corners[0, 0] + 3 * (corners[1, 0] - corners[0, 0]) / 9))
    y = int(round((corners[0, 1] + corners[3, 1]) / 2 + 5))
    across = page.image[y, x - 4 : x + 5].min(axis=1)
    # ink, paper, ink across the box line
    assert across[4] > 200 and across.min() < 100
    assert np.flatnonzero(across < 100).min() < 4 < np.flatnonzero(across < 100).max()
