"""Outlines that hold grids printed against each other are split into their grids; a single
grid of any size is not."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline.board import BoardLocation
from pipeline.grid import GridShape
from pipeline.vision.rectify import survey_board
from pipeline.vision.touching import parts_of_board
from synth.styles import PrintStyle, random_puzzles, styled_page
from tests.vision.scenes import corner_error


def _page(shape: GridShape, count: int, columns: int):
    rng = np.random.default_rng(count + shape.size)
    puzzles = random_puzzles(shape, count, rng, 0.4)
    page = styled_page(puzzles, PrintStyle(), dpi=150, columns=columns, rng=rng, gap_mm=0.0)
    return cv2.cvtColor(page.image, cv2.COLOR_BGR2GRAY), [g.corners for g in page.grids]


@pytest.mark.parametrize("shape", [GridShape(3, 3), GridShape(2, 3)])
def test_four_grids_sharing_borders_are_split_at_them(shape: GridShape) -> None:
    gray, corners = _page(shape, 4, 2)
    outline = np.array([corners[0][0], corners[1][1], corners[3][2], corners[2][3]], np.float32)
    parts = parts_of_board(survey_board(gray, BoardLocation(outline)))
    assert len(parts) == 4
    for part, truth in zip(parts, corners, strict=True):
        assert corner_error(part, truth) < 0.03


@pytest.mark.parametrize(
    "shape", [GridShape(3, 3), GridShape(2, 3), GridShape(3, 4), GridShape(4, 4), GridShape(2, 4)]
)
def test_a_single_grid_is_not_split(shape: GridShape) -> None:
    gray, corners = _page(shape, 1, 1)
    assert parts_of_board(survey_board(gray, BoardLocation(corners[0]))) == []
