"""Outlines that hold grids printed against each other are split into their grids; a single
grid of any size is not. Photographed layouts of three or more grids, grids about a
millimetre apart (two borders as one doubled line), a smaller grid against a 9x9 and two
smaller grids against a 9x9 have each grid found."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.board import BoardLocation
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.rectify import survey_board
from sudoku_batch.pipeline.vision.touching import parts_of_board
from sudoku_batch.synth.hard_photos import (
    KINDS,
    grids_in_rows,
    small_grid_beside_9x9,
    small_grids_around_9x9,
)
from sudoku_batch.synth.styles import PrintStyle, random_puzzles, styled_page
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


def _nth(make, seed: int, n: int):
    """The ``n``-th photo ``make`` draws from ``seed`` (as bench.hard_photos --layouts does)."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        make(rng)
    return make(rng)


def _smaller_grids_along_a_side(small: GridShape, gap_mm: float):
    return lambda rng: small_grids_around_9x9(
        rng, small, gap_mm, below=bool(rng.random() < 0.5), stacked=True
    )


@pytest.mark.parametrize("n", [0, 3])
def test_a_9x9_with_two_4x4s_along_a_side_is_not_read_as_one_oblong_grid(n: int) -> None:
    # The union, half as long again as wide, showed a 9x9 lattice: an oblong grid is tried
    # cut where the lines of two grids stop.
    _all_found(_nth(_smaller_grids_along_a_side(GridShape(2, 2), 0.75), 2144, n))


def test_two_4x4s_with_cells_as_large_as_the_9x9s_beside_it_are_found() -> None:
    # Cells of one size: most of the 4x4s' lines line up with the 9x9's by chance, but their
    # box lines and borders do not.
    _all_found(_nth(_smaller_grids_along_a_side(GridShape(2, 2), 0.75), 2144, 1))


def test_a_piece_cut_through_a_9x9_is_not_taken_for_a_4x4() -> None:
    # An inward-corner piece holding the top of a 9x9 and the 6x6 beside it was cut between
    # them; the 9x9's part read as a 4x4 of its box lines, with cells twice the 6x6's.
    make = lambda rng: small_grids_around_9x9(  # noqa: E731
        rng, GridShape(2, 3), 0.75, below=bool(rng.random() < 0.5), stacked=False
    )
    _all_found(_nth(make, 2163, 1))


def test_nine_grids_with_a_thin_line_faint_in_one_band_are_each_found() -> None:
    # One thin line of the union, light in one band, was missed and the cells did not count
    # as whole grids.
    make = lambda rng: grids_in_rows(rng, GridShape(3, 3), 3, 3, 1.1)  # noqa: E731
    _all_found(_nth(make, 1042, 3))


def _in_rows(shape: GridShape, columns: int, rows: int, gap_mm: float):
    return lambda rng: grids_in_rows(rng, shape, columns, rows, gap_mm)


def test_four_16x16s_whose_outer_border_is_near_the_warps_edge_are_each_found() -> None:
    # Closing doubled lines filled the paper between the outer border and the edge of the
    # warp with a margin: that border rose above no paper and the cells counted one short.
    _all_found(_nth(_in_rows(GridShape(4, 4), 2, 2, 0.75), 2038, 3))


@pytest.mark.parametrize(
    ("columns", "rows", "seed", "n"), [(3, 1, 2040, 1), (2, 4, 2033, 0)], ids=["3x1", "2x4"]
)
def test_a_part_of_a_union_split_already_is_not_found_again(
    columns: int, rows: int, seed: int, n: int
) -> None:
    # An outline of two of the grids, its centre in the gap between them (in no board), was
    # split again and its grids reported twice.
    _all_found(_nth(_in_rows(GridShape(3, 3), columns, rows, 0.75), seed, n))


def test_a_grid_cut_half_a_cell_off_a_bent_column_is_found_on_its_own_border() -> None:
    # The column's outline is straight, its grids' borders are not: a part cut from it sat
    # half a cell off, and the grid's own outline, judged right, was taken for the same board.
    _all_found(_nth(_in_rows(GridShape(3, 3), 1, 4, 1.1), 1023, 2))


def test_grids_of_different_line_weights_are_each_found() -> None:
    # Thin lines of one grid were as heavy, over the median of all lines, as box lines:
    # heavy is weighed against the lines nearby.
    _all_found(_nth(_in_rows(GridShape(3, 3), 2, 4, 0.0), 1033, 1))


def test_nine_grids_read_as_a_9x9_of_their_boxes_are_each_found() -> None:
    # The union showed a 9x9 of the grids' boxes; its own count failed where one grid's thin
    # lines counted as heavy against the median of all the lines.
    _all_found(_nth(_in_rows(GridShape(3, 3), 3, 3, 0.75), 2042, 3))
