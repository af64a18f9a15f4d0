"""The answer-key PDF: vector text holding every solution in order, its size a page, captions
within their place, the book's symbols, layouts from 4x4 to 25x25, A4 and Letter."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from sudoku_batch.pipeline.answer_key_pdf import (
    MARGIN,
    KeyEntry,
    caption_lines,
    grid_box,
    layout_for,
    slots,
    write_answer_key_pdf,
)
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import LETTERS, NUMBERS
from sudoku_batch.synth.puzzles import random_solution

SHAPES = [GridShape(2, 2), GridShape(2, 3), GridShape(3, 3), GridShape(3, 4), GridShape(4, 4)]
SHAPES += [GridShape(4, 5), GridShape(5, 5)]
LONG_SOURCE = (
    "/srv/publisher/archive/2026/November/a_very_long_folder_name_for_one_book/"
    "Sudoku Puzzles For The Whole Family Volume Three Final Proof Corrected.pdf p. 123"
)
PAGE_BYTES = 60 * 1024


def _solution(shape: GridShape, seed: int):
    return tuple(map(tuple, random_solution(shape, np.random.default_rng(seed)).tolist()))


NINE = GridShape(3, 3)


def _entries(count, shape=NINE, source="book.pdf p. 1", symbols=None):
    return [KeyEntry(str(i + 1), _solution(shape, i), shape, source, symbols) for i in range(count)]


def _symbols(entry: KeyEntry) -> list[str]:
    """The solution's symbols row by row as the key should print them."""
    letters = entry.symbols == LETTERS
    return [
        chr(ord("A") + v - 10) if letters and v > 9 else str(v)
        for row in entry.solution
        for v in row
    ]


def _page_tokens(path) -> list[list[str]]:
    pdf = pdfium.PdfDocument(path)
    return [page.get_textpage().get_text_range().split() for page in pdf]


def _holds_run(tokens: list[str], run: list[str]) -> bool:
    return any(tokens[i : i + len(run)] == run for i in range(len(tokens) - len(run) + 1))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_text_holds_every_solution_in_order(tmp_path, paper):
    entries = [
        entry
        for k, shape in enumerate(SHAPES)
        for entry in _entries(3, shape, LONG_SOURCE, NUMBERS if k % 2 else None)
    ]
    path = tmp_path / "key.pdf"
    pages = write_answer_key_pdf(entries, path, paper)
    tokens = _page_tokens(path)
    assert len(tokens) == pages
    everything = [token for page in tokens for token in page]
    for entry in entries:
        assert _holds_run(everything, _symbols(entry)), entry.title


def test_a_sixteen_printed_with_numbers_is_keyed_with_numbers(tmp_path):
    shape = GridShape(4, 4)
    numbered, lettered = _entries(1, shape, symbols=NUMBERS)[0], _entries(1, shape)[0]
    lettered = KeyEntry("2", lettered.solution, shape, "book.pdf p. 2", LETTERS)
    write_answer_key_pdf([numbered], tmp_path / "numbers.pdf")
    write_answer_key_pdf([lettered], tmp_path / "letters.pdf")
    first = _page_tokens(tmp_path / "numbers.pdf")[0]
    second = _page_tokens(tmp_path / "letters.pdf")[0]
    assert {str(v) for v in range(1, 17)} <= set(first)
    assert not set(first) & set("ABCDEFG")
    assert _holds_run(first, _symbols(numbered))
    assert set("ABCDEFG") <= set(second)
    assert not set(second) & {str(v) for v in range(10, 17)}
    assert _holds_run(second, _symbols(lettered))


def test_digits_above_nine_print_as_numbers_when_the_book_is_not_known(tmp_path):
    entry = _entries(1, GridShape(3, 4))[0]
    path = tmp_path / "key.pdf"
    write_answer_key_pdf([entry], path)
    assert {"10", "11", "12"} <= set(_page_tokens(path)[0])


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.size}x{s.size}")
def test_a_full_page_is_under_60_kb(tmp_path, shape):
    layout = layout_for(shape.size)
    count = 2 * layout.columns * layout.rows  # two full pages
    path = tmp_path / "key.pdf"
    pages = write_answer_key_pdf(_entries(count, shape, LONG_SOURCE), path)
    assert pages == 2
    assert path.stat().st_size / pages < PAGE_BYTES


def test_no_page_is_a_picture(tmp_path):
    path = tmp_path / "key.pdf"
    write_answer_key_pdf(_entries(6), path)
    page = pdfium.PdfDocument(path)[0]
    kinds = {obj.type for obj in page.get_objects()}
    assert pdfium.raw.FPDF_PAGEOBJ_IMAGE not in kinds
    assert pdfium.raw.FPDF_PAGEOBJ_TEXT in kinds


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.size}x{s.size}")
def test_captions_stay_in_their_slot(tmp_path, paper, shape):
    """Every character of the page lies inside the page title's band or inside one slot,
    whose caption sits above its grid; a long title and source are shortened to fit."""
    layout = layout_for(shape.size)
    long_title = "Extremely Difficult Challenge Puzzle Number 123456789 " * 2
    entries = [
        KeyEntry(long_title if i % 2 else str(i), e.solution, shape, LONG_SOURCE)
        for i, e in enumerate(_entries(layout.columns * layout.rows, shape))
    ]
    path = tmp_path / "key.pdf"
    assert write_answer_key_pdf(entries, path, paper) == 1
    page = pdfium.PdfDocument(path)[0]
    width, height = page.get_size()
    places = slots((width, height), layout)
    title_band = height - MARGIN - 20
    text = page.get_textpage()
    for i in range(text.count_chars()):
        if text.get_text_range(i, 1).isspace():
            continue
        left, bottom, right, top = text.get_charbox(i)
        inside = bottom >= title_band or any(
            s.x - 0.5 <= left and right <= s.x + s.width + 0.5 and s.top - s.height <= bottom
            for s in places
            if top <= s.top + 0.5
        )
        assert inside, (text.get_text_range(i, 1), (left, bottom, right, top))
    for entry, slot in zip(entries, places, strict=True):
        x, grid_bottom, side = grid_box(slot)
        lines = caption_lines(entry, slot.x + slot.width - x)
        assert all(stringWidth(t, font, size) <= slot.x + slot.width - x for t, font, size in lines)
        below_caption = slot.top - sum(size * 1.2 for _, _, size in lines)
        assert grid_bottom + side <= below_caption + 0.01
        assert slot.x <= x and x + side <= slot.x + slot.width + 0.01


def test_the_outline_holds_each_whole_caption(tmp_path):
    entries = _entries(7, source=LONG_SOURCE)
    entries.append(entries[0])  # an entry twice has two bookmarks
    path = tmp_path / "key.pdf"
    write_answer_key_pdf(entries, path)
    outline = [item.get_title() for item in pdfium.PdfDocument(path).get_toc()]
    assert outline == [f"{e.title} - {LONG_SOURCE}" for e in entries]


@pytest.mark.parametrize(("paper", "size"), [("a4", (595.3, 841.9)), ("letter", (612, 792))])
def test_page_sizes(tmp_path, paper, size):
    path = tmp_path / "key.pdf"
    write_answer_key_pdf(_entries(13), path, paper)
    pdf = pdfium.PdfDocument(path)
    assert len(pdf) == 3  # 9x9 six a page
    for page in pdf:
        assert page.get_size() == pytest.approx(size, abs=0.1)


def test_layouts_by_size():
    per_page = {n: layout_for(n).columns * layout_for(n).rows for n in (4, 6, 9, 12, 16, 25)}
    assert per_page == {4: 12, 6: 12, 9: 6, 12: 4, 16: 2, 25: 1}


def test_an_unsolved_puzzle_keeps_its_place_with_the_reason(tmp_path):
    entries = _entries(2)
    entries.insert(1, KeyEntry("2", None, GridShape(3, 3), "book.pdf p. 1", None, "not solved"))
    path = tmp_path / "key.pdf"
    write_answer_key_pdf(entries, path)
    text = " ".join(_page_tokens(path)[0])
    assert text.index("not solved") < text.index(" ".join(_symbols(entries[2])))


def test_no_entries_still_give_a_valid_one_page_pdf(tmp_path):
    path = tmp_path / "key.pdf"
    assert write_answer_key_pdf([], path) == 1
    assert len(pdfium.PdfDocument(path)) == 1
