import numpy as np
import pytest

from sudoku_batch.pipeline.recognise.ocr.text_lines import (
    LINE_HEIGHT,
    erase_edge_lines,
    line_batch,
    percentiles,
    slot_image,
)
from tests.ocr.rendered import rendered_crops


def test_edge_lines_and_what_lies_beyond_them_are_erased_but_the_digit_is_kept():
    cell = np.full((LINE_HEIGHT, LINE_HEIGHT), 230.0, np.float32)
    cell[12:36, 20:28] = 20.0  # the digit, a bar in the middle
    cell[:, 5:8] = 40.0  # a grid line left near the left edge...
    cell[10:20, 0:4] = 40.0  # ...with part of the next cell's digit beyond it
    cell[41:43, :] = 40.0  # and one along the bottom
    erased = erase_edge_lines(cell)
    assert erased[:, :9].min() > 200 and erased[40:, :].min() > 200
    np.testing.assert_array_equal(erased[12:36, 20:28], cell[12:36, 20:28])


def test_a_blank_cell_is_left_as_it_is():
    cell = np.full((LINE_HEIGHT, LINE_HEIGHT), 200.0, np.float32)
    np.testing.assert_array_equal(erase_edge_lines(cell), cell)


def test_slots_sit_side_by_side_in_balanced_lines():
    crops = rendered_crops([1, 2, 3, 4, 5, 6, 7])
    lines = line_batch(crops, 40, per_line=5)
    # 7 crops in lines of at most 5 -> 2 lines of 4 slots, the last slot white.
    assert lines.shape == (2, LINE_HEIGHT, 4 * 40)
    np.testing.assert_array_equal(lines[0, :, 40:80], slot_image(crops[1], 40))
    np.testing.assert_array_equal(lines[1, :, 0:40], slot_image(crops[4], 40))
    assert lines[1, :, 120:].min() == 255


def test_slot_width_must_be_whole_frames():
    with pytest.raises(ValueError):
        line_batch(rendered_crops([1]), 36, per_line=4)


def test_percentiles_are_numpys():
    rng = np.random.default_rng(3)
    for values in (rng.uniform(0, 255, (48, 48)).astype(np.float32), rng.integers(0, 9, (7, 5))):
        shares = (0, 2, 50, 90, 100)
        np.testing.assert_array_equal(percentiles(values, shares), np.percentile(values, shares))
