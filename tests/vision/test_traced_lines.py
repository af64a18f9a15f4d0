"""Grid lines traced on a flat page (``gridlines.traced_crossings``): every line of a board,
where it is printed, whatever the line's weight or dashes and the shading beside it."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.board import BoardImage, BoardLocation, Lattice
from pipeline.grid import GridShape
from pipeline.vision.gridlines import traced_crossings
from pipeline.vision.rectify import square_homography
from pipeline.vision.surround import surround
from pipeline.vision.warp import warp
from synth.styles import PrintStyle, random_puzzles, styled_page

CELL_PX = 64
# bench.styles' grey-dashed-shaded-right: grey dashed 0.3 pt cell lines, grey 1 pt box lines,
# alternate boxes shaded, digits set against the right of their cells.
GREY_DASHED_SHADED_RIGHT = PrintStyle(
    thin_pt=0.3,
    thick_pt=1.0,
    line_grey=110,
    shaded_boxes=True,
    dashed=True,
    align="right",
    digit_scale=0.7,
)


@pytest.mark.parametrize("dpi", [150, 300])
def test_grey_dashed_lines_beside_shading_and_right_aligned_digits_are_traced(dpi: int) -> None:
    # Before: the ink mask's band along each shaded box's inner edge and the digits' stems
    # were traced, the dashed cell lines not at all (3 of 10 rows traced, 0.2 cell off).
    shape = GridShape(3, 3)
    rng = np.random.default_rng(7)
    puzzles = random_puzzles(shape, 4, rng, 0.4)
    page = styled_page(puzzles, GREY_DASHED_SHADED_RIGHT, dpi=dpi, columns=2, rng=rng)
    n = shape.size
    for grid in page.grids:
        side = n * CELL_PX
        homography = square_homography(grid.corners, side)
        even = tuple(float(p) for p in np.arange(n + 1) * CELL_PX)
        board = BoardImage(
            BoardLocation(grid.corners),
            warp(page.image, homography, (side, side)),
            homography,
            Lattice(shape, even, even, True),
        )
        around = surround(page.image, board, 0.3)

        rows, cols, xs, ys = traced_crossings(around)

        assert rows == list(range(n + 1)) and cols == list(range(n + 1))
        places = np.array(even) + around.margin
        assert np.abs(xs - places[None, :]).max() < 0.05 * CELL_PX
        assert np.abs(ys - places[:, None]).max() < 0.05 * CELL_PX
