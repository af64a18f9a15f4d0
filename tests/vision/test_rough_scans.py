"""Grids on a careless scan (synth.degrade.ROUGH): their faint lines break, and each grid
must still be a candidate outline and a board."""

from __future__ import annotations

import zlib

import cv2
import numpy as np

from pipeline.grid import GridShape
from pipeline.vision.find_boards import find_boards
from synth.degrade import ROUGH, scan
from synth.styles import HAIRLINE_GREY, random_puzzles, styled_page

# bench.styles' page of hairline-grey under the rough condition.
SEED = zlib.crc32(b"hairline-grey:1")


def test_every_grey_hairline_grid_on_a_rough_scan_is_found() -> None:
    # The bottom right grid's border broke in two places, so its mesh's outline ran into
    # its cells and was not solid enough to be a candidate.
    rng = np.random.default_rng(SEED)
    puzzles = random_puzzles(GridShape(3, 3), 4, rng, 0.4)
    page = styled_page(puzzles, HAIRLINE_GREY, dpi=200, columns=2, rng=rng)
    boards = find_boards(scan(page.image, np.random.default_rng(SEED), ROUGH))
    for grid in page.grids:
        side = float(np.sqrt(cv2.contourArea(grid.corners)))
        # The scan turns the page by up to 4 degrees: centres move by under a tenth of a side.
        assert any(
            np.linalg.norm(b.corners.mean(axis=0) - grid.corners.mean(axis=0)) < 0.15 * side
            and 0.8 < cv2.contourArea(b.corners) / side**2 < 1.25
            for b in boards
        )
