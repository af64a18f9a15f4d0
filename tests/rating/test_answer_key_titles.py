"""The answer key's numbers: the printed ones when they are consistent, else the batch order."""

from __future__ import annotations

from sudoku_batch.reports.answer_key import puzzle_titles


def _records(*printed):
    return [{"printed_label": label, "printed_number": number} for label, number in printed]


def test_consistent_printed_numbers_are_kept_as_printed():
    records = _records((None, 12), (None, 13), (None, 11))
    assert puzzle_titles(records) == ["12", "13", "11"]


def test_numbers_restarting_per_section_keep_their_label():
    records = _records(("Easy", 1), ("Easy", 2), ("Hard", 1), ("Hard", 2))
    assert puzzle_titles(records) == ["Easy 1", "Easy 2", "Hard 1", "Hard 2"]


def test_a_number_read_twice_numbers_every_puzzle_by_its_place():
    # Three captions read "8" (e.g. "size:8" taken for a number): never three solutions "8".
    records = _records((None, 7), (None, 8), (None, 8), (None, 8))
    assert puzzle_titles(records) == ["1", "2", "3", "4"]


def test_a_missing_number_numbers_every_puzzle_by_its_place():
    records = _records((None, 1), (None, None), (None, 3))
    assert puzzle_titles(records) == ["1", "2", "3"]


def test_no_puzzles_no_titles():
    assert puzzle_titles([]) == []
