"""The rules that tell another grid from a Sudoku, on what the reader sees."""

from __future__ import annotations

import numpy as np

from sudoku_batch.pipeline.recognise.grid_kind import NumberReading, fragment_reason, other_reason


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


def test_a_36x36_is_said_to_be_beyond_the_sizes_read_never_read_as_a_12x12() -> None:
    from sudoku_batch.pipeline.recognise.ocr.engines import DEFAULT_ENGINE, make_engine
    from sudoku_batch.pipeline.recognise.read_board import recognise_board
    from sudoku_batch.pipeline.vision.page_boards import rectify_page
    from sudoku_batch.synth.other_grids import OtherGrid, draw_other_page

    rng = np.random.default_rng(5)
    cells = tuple(
        tuple(str(rng.integers(1, 37)) if rng.random() < 0.3 else "" for _ in range(36))
        for _ in range(36)
    )
    page, _ = draw_other_page([OtherGrid("big", cells, (6, 6))], rng, number=1, dpi=200)
    engine = make_engine(DEFAULT_ENGINE)
    (found,) = rectify_page(page)
    reading = recognise_board(found.board, found.cells, engine).reading
    assert reading.other_reason is not None
    assert "36x36" in reading.other_reason and "up to 25x25" in reading.other_reason
