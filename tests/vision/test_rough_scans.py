"""Grids on a careless scan (synth.degrade.ROUGH): their faint lines break, and each grid
must still be a candidate outline and a board."""

from __future__ import annotations

import zlib

import cv2
import numpy as np

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.synth.degrade import ROUGH, scan
from sudoku_batch.synth.styles import HAIRLINE_GREY, random_puzzles, styled_page

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


def test_grey_hairline_grids_on_a_rough_scan_turned_3_degrees_are_found() -> None:
    # The same page scanned turned 3.2 degrees (the scan's own random turn, seed 31): a faint
    # line's runs fall short of a stroke so often that each border broke from one crossing to
    # the next, wider than a stroke, and only 1 of the 4 grids was a candidate.
    rng = np.random.default_rng(SEED)
    puzzles = random_puzzles(GridShape(3, 3), 4, rng, 0.4)
    page = styled_page(puzzles, HAIRLINE_GREY, dpi=200, columns=2, rng=rng)
    turn = np.random.default_rng(31).uniform(-ROUGH.rotation_deg, ROUGH.rotation_deg)
    boards = find_boards(scan(page.image, np.random.default_rng(31), ROUGH))
    height, width = page.image.shape[:2]
    turned = cv2.getRotationMatrix2D((width / 2, height / 2), turn, 1.0)
    for grid in page.grids:
        side = float(np.sqrt(cv2.contourArea(grid.corners)))
        centre = turned[:, :2] @ grid.corners.mean(axis=0) + turned[:, 2]
        assert any(
            np.linalg.norm(b.corners.mean(axis=0) - centre) < 0.1 * side
            and 0.8 < cv2.contourArea(b.corners) / side**2 < 1.25
            for b in boards
        )
