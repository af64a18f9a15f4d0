"""Captions printed beside boards: parsing the text, finding the line, reading a real page."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.ingest.sources import expand_input, load_page
from sudoku_batch.pipeline.recognise.printed_captions import (
    ANSWER,
    PUZZLE,
    CaptionReader,
    _percentile,
    page_caption_lines,
    page_headings,
    parse_caption,
    spans_side_by_side,
)
from sudoku_batch.pipeline.vision.page_boards import rectify_page


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
        # Numbers that are not the puzzle's: another field's value, the grid's size, a page.
        ("size:8", None, None, None),
        ("Size: 8 Easy 3", "Easy", 3, None),
        ("level = 2", None, None, None),
        ("16x16 Hard", "Hard", None, None),
        ("Page 4", None, None, None),
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


def test_a_speck_between_a_caption_and_its_board_is_passed_over():
    """A scan's speck of 3x4 px just above the second board (as synth.book's specks fall) is
    nearer than its caption, but is no line of text."""
    page, boards = _page_with_two_boards()
    page[482:485, 300:304] = 0
    _, second = page_caption_lines(page, boards)
    assert second is not None and 420 < second.top and second.bottom < 482


def test_a_page_without_text_has_no_captions():
    page, boards = _page_with_two_boards()
    blank = np.full_like(page, 255)
    for corners in boards:
        x0, y0 = corners[0].astype(int)
        cv2.rectangle(blank, (x0, y0), (x0 + 300, y0 + 300), 0, 3)
    assert page_caption_lines(blank, boards) == [None, None]


def test_shading_above_a_board_is_no_heading():
    """Paper shaded from 245 down to 195 towards a board below it (a photo's shadow), and a
    faint band of 212-230 in it: the region has contrast, but no line of it holds ink."""
    page = np.full((800, 800), 245, np.uint8)
    page[:300] = np.linspace(245, 195, 300, dtype=np.uint8)[:, None]
    page[20:60, 200:400] = np.linspace(230, 212, 200, dtype=np.uint8)[None, :]
    boards = [_board(page, 100, 320, side=400)]
    lines = page_caption_lines(page, boards)
    assert page_headings(page, boards, lines) == [None]
    _text(page, "Hard puzzles", 200, 50)  # the same page with text: it is found
    assert page_headings(page, boards, lines)[0] is not None


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


def _board(page: np.ndarray, left: int, top: int, side: int = 300) -> np.ndarray:
    cv2.rectangle(page, (left, top), (left + side, top + side), 0, 3)
    corners = [(left, top), (left + side, top), (left + side, top + side), (left, top + side)]
    return np.array(corners, np.float32)


def _text(page: np.ndarray, text: str, left: int, baseline: int) -> None:
    cv2.putText(page, text, (left, baseline), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 0, 2)


def _sections_page() -> tuple[np.ndarray, list[np.ndarray]]:
    """Two rows of two boards: "Hard puzzles" over the first row, far above it (no board's
    caption), "Solutions" across the page over the second; boards 1 and 3 have their own
    caption below them, board 3's saying "Puzzle"."""
    page = np.full((1200, 800), 255, np.uint8)
    _text(page, "Hard puzzles", 300, 40)
    boards = [_board(page, 60, 130), _board(page, 440, 130)]
    _text(page, "12", 575, 470)
    _text(page, "Solutions", 330, 590)
    boards += [_board(page, 60, 680), _board(page, 440, 680)]
    _text(page, "Puzzle 7", 520, 1020)
    return page, boards


def test_a_heading_is_the_nearest_line_above_a_board_that_is_not_one_boards_caption():
    page, boards = _sections_page()
    lines = page_caption_lines(page, boards)
    assert lines[0] is None and lines[2] is None  # the headings are too far from any board
    assert lines[1] is not None and lines[3] is not None
    headings = page_headings(page, boards, lines)
    assert all(h is not None for h in headings)
    first, second = headings[0], headings[2]
    assert first.bottom <= 45 and 540 < second.top and second.bottom < 600
    assert headings[1] is first and headings[3] is second  # nearest above wins
    # "12", below board 1, is that board's own caption: no heading for boards under it.
    assert all(not h.same_ink(lines[1]) for h in headings)


def test_a_page_heading_lends_label_and_role_but_never_a_number(reader):
    page, boards = _sections_page()
    captions = reader.page_captions(page, boards)
    assert [(c.label, c.number, c.role) for c in captions] == [
        ("Hard", None, PUZZLE),
        ("Hard", 12, PUZZLE),
        (None, None, ANSWER),
        (None, 7, PUZZLE),  # its own "Puzzle" stands against the "Solutions" above it
    ]
    assert captions[0].heading == "Hard puzzles" and captions[3].heading is None


def test_a_heading_over_two_boards_labels_the_boards_below_them(reader):
    """As postonwj/sudoku-agent prints "Easy" once per page, centred over the top row."""
    page = np.full((1150, 800), 255, np.uint8)
    _text(page, "Easy", 365, 100)
    boards = [_board(page, 60 + 380 * (i % 2), 130 + 500 * (i // 2)) for i in range(4)]
    captions = reader.page_captions(page, boards)
    assert [c.label if c else None for c in captions] == ["Easy"] * 4
    assert captions[2].heading == captions[3].heading == "Easy"


def test_the_caption_band_turns_with_the_board(reader):
    """A turned scan with the caption close to a thick frame: in an upright band the tilted
    frame and the tilted caption share rows (the board's own edge enters the band); square
    to the board they stay apart."""
    page = np.full((900, 900), 255, np.uint8)
    cv2.rectangle(page, (200, 250), (700, 750), 0, 14)
    _text(page, "Puzzle 12", 330, 231)
    turn = cv2.getRotationMatrix2D((450, 450), 2.0, 1.0)
    turned = cv2.warpAffine(page, turn, (900, 900), borderValue=255)
    square = np.array([(200, 250), (700, 250), (700, 750), (200, 750)], np.float64)
    corners = ((turn[:, :2] @ square.T).T + turn[:, 2]).astype(np.float32)
    (line,) = page_caption_lines(turned, [corners])
    assert line is not None
    assert 190 < (line.top + line.bottom) / 2 < 240  # the caption, not the frame
    (caption,) = reader.page_captions(turned, [corners])
    assert caption.number == 12


@pytest.mark.parametrize(("page_number", "role"), [(1, None), (60, ANSWER)])
def test_a_books_dev_heading_printed_once_per_page_labels_every_board(
    reader, shared_data, page_number, role
):
    """postonwj/sudoku-agent prints "Easy" (or "Easy Solutions") once, centred over the top
    row of six boards, and no caption of their own."""
    path = shared_data / "books-dev" / "pdf" / "postonwj__sudoku-agent" / "sudoku_easy_section.pdf"
    source = next(s for s in expand_input(path, label=str(path)) if s.page == page_number)
    pixels = load_page(source).pixels
    gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
    boards = [found.board.location.corners for found in rectify_page(pixels)]
    captions = reader.page_captions(gray, boards)
    assert len(captions) == 6
    assert [(c.label, c.number, c.role) for c in captions] == [("Easy", None, role)] * 6
    assert sum(c.heading is not None for c in captions) == 4  # the top row's is their own


def test_the_histogram_percentile_is_numpys():
    rng = np.random.default_rng(0)
    for size in (1, 2, 7, 1000):
        for _ in range(50):
            pixels = rng.integers(0, 256, size=size).astype(np.uint8)
            pixels[rng.random(size) < 0.8] = 255  # a band is mostly paper
            assert _percentile(pixels, 90) == pytest.approx(np.percentile(pixels, 90))


def test_a_line_over_two_boards_side_by_side_is_a_heading_though_one_band_took_it():
    """On a scan one board's band may miss the heading centred over the top row; the line
    still reaches over both boards, so it heads the rows below rather than being that one
    board's caption."""
    page = np.full((1150, 800), 255, np.uint8)
    _text(page, "Easy puzzles", 300, 100)
    boards = [_board(page, 60 + 380 * (i % 2), 130 + 500 * (i // 2)) for i in range(4)]
    one_band = [page_caption_lines(page, boards)[0], None, None, None]
    assert one_band[0] is not None
    headings = page_headings(page, boards, one_band)
    assert headings[2] is not None and headings[2] is headings[3]
    assert headings[2].same_ink(one_band[0])
    # Over one board only (stacked boards share their columns), it stays that board's caption.
    assert not spans_side_by_side([(60, 130, 360, 430), (60, 630, 360, 930)], 100, 300, 100, 300)
    # On a turned page a lower row's board may reach under the line too: only the row right
    # under it counts.
    turned = [(40, 130, 340, 430), (380, 130, 680, 430), (75, 1130, 375, 1430)]
    assert not spans_side_by_side(turned, 350, 500, 100, 300)
