"""Pages in other publishers' print styles (synth.styles): every grid found, measured at its
true size and box shape, and its cells sorted right, at the resolutions books are scanned at."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.degrade import scan
from sudoku_batch.synth.grid_image import Align, cell_kind
from sudoku_batch.synth.styles import (
    DASHED_CELL_LINES,
    DOUBLED_BOX_LINES,
    HAIRLINE_BOXES,
    HAIRLINE_GREY,
    HAIRLINE_LEFT_ALIGNED,
    NO_BOX_LINES,
    OVERSIZED_DIGITS,
    PrintStyle,
    random_puzzles,
    styled_page,
)
from tests.vision.scenes import corner_error


def _read_all(
    style: PrintStyle,
    shape: GridShape,
    count: int,
    columns: int,
    dpi: int,
    fill: float = 0.4,
    scanned: bool = False,
    gap_mm: float = 4.0,
) -> None:
    """Every grid of a page in ``style`` found at its corners, at its size and box shape, and
    each of its cells sorted right (``scanned``: on the page as a flatbed scan)."""
    rng = np.random.default_rng(dpi + count)
    puzzles = random_puzzles(shape, count, rng, fill)
    page = styled_page(puzzles, style, dpi=dpi, columns=columns, rng=rng, gap_mm=gap_mm)
    boards = rectify_page(scan(page.image, rng) if scanned else page.image)
    assert len(boards) == len(page.grids)
    for found, truth in zip(boards, page.grids, strict=True):
        if not scanned:  # a scan turns the page: its truth corners no longer hold
            assert corner_error(found.board.location.corners, truth.corners) < 0.03
        # No box lines means the size's usual box shape.
        assert found.board.shape == shape
        kinds = [cell_kind(v) for row in truth.generated.puzzle.givens for v in row]
        assert [c.kind for c in found.cells] == kinds


@pytest.mark.parametrize("dpi", [300, 600])
def test_eight_grids_in_grey_hairlines_are_all_found_at_high_resolution(dpi: int) -> None:
    # At 300 dpi a 0.3 pt line is one pixel: sampled down for the search, it vanished in
    # most rows and only some grids were found.
    _read_all(HAIRLINE_GREY, GridShape(3, 3), 8, 2, dpi)


def test_small_grids_in_grey_hairlines_are_found_at_300_dpi() -> None:
    _read_all(HAIRLINE_GREY, GridShape(2, 2), 8, 2, 300)


def test_hairline_cells_with_thicker_boxes_at_600_dpi() -> None:
    _read_all(HAIRLINE_BOXES, GridShape(3, 3), 6, 2, 600)


@pytest.mark.parametrize("dpi", [150, 300])
def test_filled_16x16_in_hairlines_is_not_read_as_its_boxes(dpi: int) -> None:
    # Among numbers in every cell the grey hairlines fell below the ink threshold and only the
    # black box lines were left: a 4x4 lattice.
    _read_all(HAIRLINE_LEFT_ALIGNED, GridShape(4, 4), 1, 1, dpi, fill=1.0)


def test_grids_without_box_lines_take_the_usual_box_shape() -> None:
    _read_all(NO_BOX_LINES, GridShape(3, 3), 6, 2, 150)


def test_digits_larger_than_their_cells_are_givens() -> None:
    rng = np.random.default_rng(5)
    page = styled_page(
        random_puzzles(GridShape(3, 3), 1, rng, fill=0.5),
        OVERSIZED_DIGITS,
        dpi=150,
        columns=1,
        rng=rng,
    )
    (board,) = rectify_page(page.image)
    givens = [c for c in board.cells if c.kind is CellKind.GIVEN]
    truth = [v for row in page.grids[0].generated.puzzle.givens for v in row if v]
    assert len(givens) == len(truth)


@pytest.mark.parametrize("align", ["left", "right", "top", "bottom"])
@pytest.mark.parametrize("dpi", [150, 300])
def test_digits_set_against_a_line_are_givens(align: Align, dpi: int) -> None:
    # A small digit against its cell's side misses the cell's centre, where alone ink was
    # looked for: 19 of 32 right-aligned givens were empty.
    _read_all(PrintStyle(align=align, digit_scale=0.6), GridShape(3, 3), 2, 2, dpi)


@pytest.mark.parametrize("align", ["top-left", "top-right", "bottom-left", "bottom-right"])
def test_small_digits_in_a_corner_are_givens(align: Align) -> None:
    # Before: 26 to 31 of 32 givens were empty.
    _read_all(PrintStyle(align=align, digit_scale=0.45), GridShape(3, 3), 2, 2, 150)


@pytest.mark.parametrize("align", ["right", "top-left"])
def test_digits_off_the_centre_of_a_scan_are_givens(align: Align) -> None:
    _read_all(PrintStyle(align=align, digit_scale=0.6), GridShape(3, 3), 2, 2, 200, scanned=True)


def test_numbers_set_against_a_line_in_16x16_are_givens() -> None:
    _read_all(PrintStyle(align="right", digit_scale=0.7), GridShape(4, 4), 2, 2, 150)


@pytest.mark.parametrize("gap_mm", [1.0, 2.0])
def test_grids_a_millimetre_or_two_apart_are_each_found(gap_mm: float) -> None:
    # The band looked at for lines going on past a border began a fifth of a cell out, past
    # the gap, on the neighbour's lines: the four grids were one 6x6 or none.
    _read_all(PrintStyle(), GridShape(3, 3), 4, 2, 150, gap_mm=gap_mm)


@pytest.mark.parametrize(("count", "columns"), [(4, 2), (2, 2), (2, 1)])
def test_grids_printed_against_each_other_are_each_found(count: int, columns: int) -> None:
    # With no gap, each grid's white margin paints over its neighbour's border: neighbours
    # share one border line, and two or four grids made one outline, read as a 12x12 (2x6),
    # a 6x6 without box lines, or nothing.
    _read_all(PrintStyle(), GridShape(3, 3), count, columns, 150, gap_mm=0.0)


@pytest.mark.parametrize("dpi", [150, 300])
def test_grids_with_dashed_cell_lines_are_found(dpi: int) -> None:
    # A dashed line is no long stroke: opened out with the digits, its grid showed only its
    # box lines, which fit no comb with a 9x9's spacing, and no grid on the page was found.
    _read_all(DASHED_CELL_LINES, GridShape(3, 3), 4, 2, dpi)


def test_dashed_cell_lines_on_a_scan() -> None:
    _read_all(DASHED_CELL_LINES, GridShape(3, 3), 2, 2, 200, scanned=True)


def test_a_16x16_with_dashed_cell_lines_is_not_read_as_its_boxes() -> None:
    # Its solid box lines alone fit a 4x4.
    style = PrintStyle(thin_pt=0.5, thick_pt=1.5, dashed=True, labels="letters")
    _read_all(style, GridShape(4, 4), 1, 1, 150, fill=0.5)


@pytest.mark.parametrize("dpi", [150, 600])
def test_doubled_box_lines_are_one_box_line(dpi: int) -> None:
    # Two thin lines with paper between, where other books print one thick line.
    _read_all(DOUBLED_BOX_LINES, GridShape(3, 3), 4, 2, dpi)
