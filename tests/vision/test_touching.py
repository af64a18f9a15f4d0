"""Outlines that hold grids printed against each other are split into their grids; a single
grid of any size is not. Photographed layouts of three or more grids, grids about a
millimetre apart (two borders as one doubled line), a smaller grid against a 9x9 and two
smaller grids against a 9x9 have each grid found."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline.board import BoardLocation
from pipeline.grid import GridShape
from pipeline.vision.find_boards import find_boards
from pipeline.vision.rectify import survey_board
from pipeline.vision.touching import parts_of_board
from synth.hard_photos import (
    KINDS,
    grids_in_rows,
    small_grid_beside_9x9,
    small_grids_around_9x9,
)
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
    parts = parts_of_board(gray, survey_board(gray, BoardLocation(outline)))
    assert len(parts) == 4
    for part, truth in zip(parts, corners, strict=True):
        assert corner_error(part, truth) < 0.03


@pytest.mark.parametrize(
    "shape", [GridShape(3, 3), GridShape(2, 3), GridShape(3, 4), GridShape(4, 4), GridShape(2, 4)]
)
def test_a_single_grid_is_not_split(shape: GridShape) -> None:
    gray, corners = _page(shape, 1, 1)
    assert parts_of_board(gray, survey_board(gray, BoardLocation(corners[0]))) == []


def _all_found(photo) -> None:
    found = find_boards(photo.image)
    assert len(found) == len(photo.corners)
    for truth in photo.corners:
        assert min(corner_error(f.corners, truth) for f in found) < 0.03


@pytest.mark.parametrize(
    ("columns", "rows", "gap_mm"),
    [(3, 1, 0.0), (1, 3, 0.0), (3, 2, 0.0), (2, 3, 0.7), (3, 3, 0.0), (3, 1, 1.0)],
)
def test_three_or_more_grids_in_a_row_are_each_found(columns: int, rows: int, gap_mm: float):
    rng = np.random.default_rng(10 * columns + rows)
    _all_found(grids_in_rows(rng, GridShape(3, 3), columns, rows, gap_mm))


@pytest.mark.parametrize(("columns", "rows"), [(2, 1), (1, 2), (2, 2)])
def test_grids_a_millimetre_apart_with_doubled_border_lines_are_each_found(
    columns: int, rows: int
) -> None:
    rng = np.random.default_rng(20 + 10 * columns + rows)
    _all_found(grids_in_rows(rng, GridShape(3, 3), columns, rows, 1.1))


@pytest.mark.parametrize("small", [GridShape(2, 3), GridShape(2, 2)])
@pytest.mark.parametrize("below", [False, True])
@pytest.mark.parametrize("gap_mm", [0.0, 0.8])
def test_a_smaller_grid_printed_against_a_9x9_is_found_with_it(
    small: GridShape, below: bool, gap_mm: float
) -> None:
    rng = np.random.default_rng(small.size + 2 * below + int(10 * gap_mm))
    _all_found(small_grid_beside_9x9(rng, small, gap_mm, below))


@pytest.mark.parametrize(
    ("columns", "rows", "gap_mm", "seed"),
    [(2, 2, 1.0, 2), (2, 2, 1.0, 3), (3, 3, 1.1, 3), (3, 3, 1.1, 4)],
)
def test_a_union_of_grids_a_millimetre_apart_is_split_when_its_outline_is_off(
    columns: int, rows: int, gap_mm: float, seed: int
) -> None:
    # The union's outline lies off its outer border (half of that line outside it), and the
    # doubled lines between the grids are a blurred band nearly as wide as the narrowest cell.
    _all_found(grids_in_rows(np.random.default_rng(seed), GridShape(3, 3), columns, rows, gap_mm))


@pytest.mark.parametrize(("columns", "rows"), [(4, 1), (1, 4)])
@pytest.mark.parametrize("gap_mm", [0.0, 0.75])
def test_four_grids_in_a_row_are_each_found(columns: int, rows: int, gap_mm: float) -> None:
    rng = np.random.default_rng(40 + columns + int(10 * gap_mm))
    _all_found(grids_in_rows(rng, GridShape(3, 3), columns, rows, gap_mm))


def test_a_grid_a_millimetre_from_one_whose_lines_it_lines_up_with_is_found() -> None:
    # A 6x6 0.75 mm from a 9x9 with cells of the same size, its lines a few pixels off the
    # 9x9's: they look as if they ran on past its border, but across a second border.
    rng = np.random.default_rng(2)
    for _ in range(6):
        photo = KINDS["touching_mixed"](rng)
    _all_found(photo)


@pytest.mark.parametrize("seed", [0, 3, 6])
def test_two_smaller_grids_one_beside_and_one_below_a_9x9_are_each_found(seed: int) -> None:
    small = GridShape(2, 3) if seed % 2 else GridShape(2, 2)
    rng = np.random.default_rng(seed)
    _all_found(small_grids_around_9x9(rng, small, 0.0, below=False, stacked=False))


@pytest.mark.parametrize("seed", [0, 1, 4])
def test_two_smaller_grids_side_by_side_along_a_9x9_are_each_found(seed: int) -> None:
    # The two together are about as long as the 9x9's side: one outline without inward
    # corners, cut where the lines of the 9x9 stop.
    small = GridShape(2, 3) if seed % 2 else GridShape(2, 2)
    rng = np.random.default_rng(seed)
    _all_found(small_grids_around_9x9(rng, small, 0.0, below=seed % 4 >= 2, stacked=True))
