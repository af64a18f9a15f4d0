"""The rules that tell another grid from a Sudoku, on what the reader sees."""

from __future__ import annotations

import numpy as np

from pipeline.recognise.grid_kind import NumberReading, fragment_reason, other_reason


def numbers(values: list[int], confidence: float = 0.99) -> list[NumberReading]:
    return [NumberReading(k // 9, k % 9, value, confidence) for k, value in enumerate(values)]


def test_many_numbers_beyond_the_size_make_another_grid() -> None:
    reason = other_reason(9, 40, numbers([57, 12, 33, 41, 9, 8] + [20] * 8))
    assert reason is not None and "beyond 9" in reason and "reads 57" in reason


def test_a_sudoku_misread_in_a_cell_or_two_stays_a_sudoku() -> None:
    assert other_reason(9, 30, numbers([11, 17] + [5] * 28)) is None
    # Many beyond N but unsure: no decision on guesses.
    assert other_reason(9, 30, numbers([57] * 30, confidence=0.5)) is None
    # 10..16 are a 16x16's own symbols.
    assert other_reason(16, 100, numbers(list(range(1, 17)) * 6)) is None


def test_a_lattice_running_out_of_the_image_is_a_fragment() -> None:
    square = np.array([[10, 10], [310, 10], [310, 310], [10, 310]], np.float32)
    assert fragment_reason(square, 9, (400, 400)) is None
    # The border on the image's edge: still whole (photos are framed that tight).
    assert fragment_reason(square - 10, 9, (400, 400)) is None
    cut = square + np.array([0, 120], np.float32)  # the bottom row of cells below the image
    assert "fragment" in fragment_reason(cut, 9, (400, 400))
    assert fragment_reason(cut, 9, None) is None
