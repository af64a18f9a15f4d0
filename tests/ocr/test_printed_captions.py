"""Captions printed beside boards: parsing the text, finding the line, reading a real page."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from pipeline.ingest.sources import expand_input, load_page
from pipeline.recognise.printed_captions import (
    ANSWER,
    PUZZLE,
    CaptionReader,
    page_caption_lines,
    parse_caption,
)
from pipeline.vision.page_boards import rectify_page


@pytest.mark.parametrize(
    ("text", "label", "number", "role"),
    [
        ("Easy Puzzle #12", "Easy", 12, PUZZLE),
        ("Hard - 34", "Hard", 34, None),
        ("Solution 7", None, 7, ANSWER),
        ("Solution to puzzle 7", None, 7, ANSWER),
        ("VERY HARD No. 101", "Very Hard", 101, None),
        ("Puzzle 3 of 100", None, 3, PUZZLE),
        ("Medium", "Medium", None, None),
        ("Easy Solutions", "Easy", None, ANSWER),
        ("jarnotmaciej.com", None, None, None),
    ],
)
def test_parse_caption(text, label, number, role):
    caption = parse_caption(text)
    assert (caption.label, caption.number, caption.role) == (label, number, role)


def _page_with_two_boards() -> tuple[np.ndarray, list[np.ndarray]]:
    """Two 300 px boards one above the other, a caption above each and a heading at the top;
    the second caption lies inside the first board's band below too."""
    page = np.full((1000, 600), 255, np.uint8)
    boards = []
    for top, caption in ((120, "Puzzle 1"), (490, "Puzzle 2")):
        cv2.rectangle(page, (150, top), (450, top + 300), 0, 3)
        cv2.putText(page, caption, (230, top - 12), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
        corners = [(150, top), (450, top), (450, top + 300), (150, top + 300)]
        boards.append(np.array(corners, np.float32))
    cv2.putText(page, "Easy", (260, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)
    return page, boards


def test_each_board_gets_the_line_nearest_it():
    page, boards = _page_with_two_boards()
    first, second = page_caption_lines(page, boards)
    # The second board's caption is in the first board's band below too, but nearer the second.
    assert first is not None and second is not None
    assert first.bottom <= 120 and first.top > 60  # "Puzzle 1", not the heading above it
    assert 420 < second.top and second.bottom < 490


def test_a_page_without_text_has_no_captions():
    page, boards = _page_with_two_boards()
    blank = np.full_like(page, 255)
    for corners in boards:
        x0, y0 = corners[0].astype(int)
        cv2.rectangle(blank, (x0, y0), (x0 + 300, y0 + 300), 0, 3)
    assert page_caption_lines(blank, boards) == [None, None]


@pytest.fixture(scope="module")
def reader():
    return CaptionReader()


def test_reads_label_and_number_on_a_generated_page(reader):
    page, boards = _page_with_two_boards()
    captions = reader.page_captions(page, boards)
    assert [c.number for c in captions] == [1, 2]


def test_reads_a_books_dev_page(reader, shared_data):
    path = shared_data / "books-dev" / "pdf" / "JarnotMaciej__sudoku" / "samples_mixed.pdf"
    source = next(s for s in expand_input(path, label=str(path)) if s.page == 3)
    pixels = load_page(source).pixels
    gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    boards = [found.board.location.corners for found in rectify_page(pixels)]
    captions = reader.page_captions(gray, boards)
    assert [(c.label, c.number, c.role) for c in captions] == [
        ("Easy", 1, ANSWER),
        ("Easy", 2, ANSWER),
    ]


def test_a_caption_nearer_the_next_board_is_not_taken_for_this_one():
    page, boards = _page_with_two_boards()
    page[60:118, 150:451] = 255  # no caption above the first board any more
    first, second = page_caption_lines(page, boards)
    assert first is None  # "Puzzle 2" below it is the second board's
    assert second is not None and 420 < second.top
