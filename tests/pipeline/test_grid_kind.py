"""The rules that tell another grid from a Sudoku, on what the reader sees."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.recognise.grid_kind import NumberReading, fragment_reason, other_reason
from sudoku_batch.synth.fonts import FONT_FILES


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


# The mixed book's faces on a machine with only the DejaVu fonts (synth.fonts' list in order):
# there its calendar is taken for a 4x4 lattice whose cells cut across the dates.
DEJAVU_FONTS = tuple(name for name in FONT_FILES if name.startswith("DejaVu"))
# A 4x4 Sudoku's solution, row by row: readings that contradict nothing.
FULL_4X4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


@pytest.fixture(scope="module")
def calendar_page_boards(tmp_path_factory: pytest.TempPathFactory) -> list:
    from sudoku_batch.pipeline.ingest.sources import expand_input, load_page
    from sudoku_batch.pipeline.vision.page_boards import rectify_page
    from sudoku_batch.synth.fonts import font_path
    from sudoku_batch.synth.other_grids import mixed_book
    from sudoku_batch.synth.pdf import write_jpeg_pdf

    try:
        fonts = [font_path(name) for name in DEJAVU_FONTS]
    except FileNotFoundError as missing:
        pytest.skip(str(missing))
    book = mixed_book(np.random.default_rng(27), fonts=fonts)
    assert book.kinds[2] == ("table", "calendar")
    path = tmp_path_factory.mktemp("calendar") / "page.pdf"
    write_jpeg_pdf(path, iter(book.pages[2:3]), 150)
    (source,) = expand_input(path, path.name)
    found = rectify_page(load_page(source).pixels)
    # The case reproduced: the calendar's 7 columns and 6 rows measured as a 4x4.
    assert [board.board.shape.size for board in found] == [9, 4]
    return found


def test_a_calendar_taken_for_a_4x4_lattice_is_another_grid(calendar_page_boards) -> None:
    from sudoku_batch.pipeline.recognise.ocr.engines import DEFAULT_ENGINE, make_engine
    from sudoku_batch.pipeline.recognise.read_board import recognise_board

    engine = make_engine(DEFAULT_ENGINE)
    for board in calendar_page_boards:
        reason = recognise_board(board.board, board.cells, engine).reading.other_reason
        assert reason is not None and reason.startswith("not a Sudoku"), reason


class Full4x4Engine:
    """Reads a board's cells, in the order given, as a 4x4 Sudoku's solution."""

    name = "full-4x4"

    def read_digits(self, crops, symbols):
        from sudoku_batch.pipeline.reading import DigitReading

        return [DigitReading(FULL_4X4[k % 16], 1.0) for k in range(len(crops))]


def test_a_lattice_across_printed_numbers_is_another_grid_whatever_its_cells_read(
    calendar_page_boards,
) -> None:
    from sudoku_batch.pipeline.recognise.read_board import recognise_board

    calendar = calendar_page_boards[1]
    recognised = recognise_board(calendar.board, calendar.cells, Full4x4Engine())
    assert recognised.reading.puzzle().givens == (
        tuple(FULL_4X4[r * 4 : r * 4 + 4] for r in range(4))
    )
    reason = recognised.reading.other_reason
    assert reason is not None and "further lines cross the cells" in reason, reason
