"""A board with the back page's print showing through (its grid mirrored and a little off) is
found on its own border, not on the fainter border of the print showing through: both
synth.phantom_styles' show_through and show_through_sweep (any offset, turn, darkness and
light) and a darker, softer one further off (synth.held_out_styles)."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.vision.even_lines import even_lines, line_middle, line_runs
from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.synth.held_out_styles import HELD_OUT_STYLES
from sudoku_batch.synth.phantom_styles import STYLES

SEEDS = {
    "show_through": range(1, 9),
    "show_through_sweep": range(1, 25),
    "strong_show_through": range(1, 9),
}
MAKERS = {
    "show_through": STYLES["show_through"],
    "show_through_sweep": STYLES["show_through_sweep"],
    "strong_show_through": HELD_OUT_STYLES["strong_show_through"],
}
# Corners within this share of a cell of the true ones leave every cell's interior as it was.
CORNER_CELLS = 0.1
# Seeds found off their border: where the back page's grid lies about half a cell off the
# board's, the lattice's lines fall between the two pages' lines and the border fit cannot
# reach the board's own border (show_through_sweep 7, 13, 14); or (the darker print) no
# outline reads the grid's lattice at all, or one cut short at a corner leaves the grid's own
# border beyond reach of the fit.
FAILING = {
    ("show_through_sweep", 7),
    ("show_through_sweep", 13),
    ("show_through_sweep", 14),
    ("strong_show_through", 2),
    ("strong_show_through", 3),
    ("strong_show_through", 4),
    ("strong_show_through", 5),
    ("strong_show_through", 7),
    ("strong_show_through", 8),
}


@pytest.mark.parametrize(
    ("style", "seed"),
    [
        pytest.param(*case, marks=pytest.mark.xfail(strict=True)) if case in FAILING else case
        for case in ((style, seed) for style in MAKERS for seed in SEEDS[style])
    ],
)
def test_a_board_showing_the_back_page_through_is_found_on_its_own_border(
    style: str, seed: int
) -> None:
    photo = MAKERS[style](np.random.default_rng(seed))
    (truth,), (puzzle,) = photo.corners, photo.puzzles
    cell = np.linalg.norm(truth - np.roll(truth, -1, axis=0), axis=1).mean() / puzzle.size

    found = find_boards(photo.image)

    assert len(found) == 1
    assert np.abs(found[0].corners - truth).max() < CORNER_CELLS * cell


def test_an_outer_line_is_the_one_evenly_spaced_with_the_grid_not_the_back_pages_border() -> None:
    # The coverage of a board whose outline took in the back page's border half a cell past
    # its own: its lines every 46.7 px, the back page's box lines (all of it that is ink) 22 px
    # to the right of every third one. A comb of 9 over the 446 px finds only the back page's
    # border near its last tooth.
    coverage = np.zeros(446)
    for i in range(10):
        coverage[round(i * 46.7) : round(i * 46.7) + 5] = 1.0
    for i in range(0, 10, 3):
        coverage[round(i * 46.7) + 22 : round(i * 46.7) + 27] = 0.8
    cell = coverage.size / 9
    reach = 0.4 * cell
    found = [
        line_runs(coverage, max(0, round(i * cell - reach)), round(i * cell + reach) + 1)
        for i in range(10)
    ]
    assert abs(line_middle(found[-1]) - 9 * 46.7) > 0.25 * cell

    lines = even_lines(found, coverage, cell, reach, weakest=0.2)

    assert lines[-1] is not None
    assert abs(lines[-1] - (9 * 46.7 + 2)) < 1


def test_an_outer_line_cut_off_by_the_outline_is_where_the_spacing_puts_it() -> None:
    # The coverage of a board whose outline cut off its right border: its lines every 46.7
    # px, the border at 420 past the 415 px warp. A column of digits' strokes 20 px inside it
    # covers a quarter of the board, and the comb's last tooth finds only that.
    coverage = np.zeros(415)
    for i in range(9):
        coverage[round(i * 46.7) : round(i * 46.7) + 5] = 1.0
    coverage[398:402] = 0.25
    cell = coverage.size / 9
    reach = 0.4 * cell
    found = [
        line_runs(coverage, max(0, round(i * cell - reach)), round(i * cell + reach) + 1)
        for i in range(10)
    ]
    assert abs(line_middle(found[-1]) - 399.5) < 1

    lines = even_lines(found, coverage, cell, reach, weakest=0.2)

    assert lines[-1] == coverage.size
