"""The review page's board draws a grid's region borders as renders do (the same edges,
``pipeline.region_lines``): a jigsaw's over the board's image, where the print alone shows
them faintly or not at all; every grid's on a plain board, which has no print."""

from __future__ import annotations

import numpy as np

from sudoku_batch.pipeline.geometry import box_regions
from sudoku_batch.pipeline.region_lines import region_borders
from sudoku_batch.reports.board_lines import board_lines
from sudoku_batch.synth.variant_puzzles import random_regions

ROWS = tuple(10.0 + 50.0 * i for i in range(10))
COLS = tuple(5.0 + 48.0 * i for i in range(10))


def drawn(lines: list[dict], kind: str) -> set[tuple[float, float, float, float]]:
    return {(ln["x1"], ln["y1"], ln["x2"], ln["y2"]) for ln in lines if ln["kind"] == kind}


def at_lattice(regions) -> set[tuple[float, float, float, float]]:
    return {
        (COLS[c0], ROWS[r0], COLS[c1], ROWS[r1]) for (r0, c0), (r1, c1) in region_borders(regions)
    }


def test_a_jigsaws_region_borders_are_drawn_over_its_board_image() -> None:
    regions = random_regions(9, np.random.default_rng(5))
    record = {"variant": "jigsaw", "regions": regions, "box": [3, 3]}
    lines = board_lines(record, ROWS, COLS, over_image=True)
    assert drawn(lines, "region-line") == at_lattice(regions)
    assert at_lattice(regions) != at_lattice(box_regions(3, 3))  # not the boxes
    assert not drawn(lines, "diagonal-line")


def test_a_diagonal_variants_diagonals_are_drawn_too() -> None:
    record = {"variant": "diagonal", "regions": box_regions(3, 3), "box": [3, 3]}
    lines = board_lines(record, ROWS, COLS, over_image=True)
    assert drawn(lines, "diagonal-line") == {
        (COLS[0], ROWS[0], COLS[9], ROWS[9]),
        (COLS[9], ROWS[0], COLS[0], ROWS[9]),
    }


def test_a_classic_grid_adds_nothing_to_its_print_but_a_plain_board_shows_its_boxes() -> None:
    record = {"variant": "classic", "regions": None, "box": [3, 3]}
    assert board_lines(record, ROWS, COLS, over_image=True) == []
    plain = board_lines(record, ROWS, COLS, over_image=False)
    assert drawn(plain, "region-line") == at_lattice(box_regions(3, 3))
