"""How a book prints digits above 9 (10..16 or A..G): read from the spelling the recogniser
scored higher, decided per board, and printed the same way."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.reading import LETTERS, NUMBERS, DigitReading, printed_symbols, symbol_of
from sudoku_batch.pipeline.recognise.ocr.base import digit_symbols
from sudoku_batch.pipeline.recognise.ocr.ctc_lines import DOUBLE_SLOT, CtcLineEngine
from sudoku_batch.pipeline.recognise.ocr.text_lines import FRAME_WIDTH
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.puzzles import random_solution
from tests.ocr.boards import board_from_corners

CHARACTERS = ["<blank>", *"0123456789ABCDEFG"]


class ScriptedEngine(CtcLineEngine):
    """Each crop's frames spell the text scripted for it, one character a frame."""

    name = "scripted"

    def __init__(self, texts: list[str]):
        super().__init__(CHARACTERS, temperature=1.0)
        self.texts = texts

    def frame_probabilities(self, crops, slot_width):
        frames = slot_width // FRAME_WIDTH
        probs = np.full((len(crops), frames, len(CHARACTERS)), 1e-4)
        for i, text in enumerate(self.texts):
            spelled = list(text) + [None] * (frames - len(text))
            for f, char in enumerate(spelled):
                probs[i, f, 0 if char is None else CHARACTERS.index(char)] = 1.0
        return probs / probs.sum(axis=2, keepdims=True)


def test_the_reading_keeps_the_spelling_it_read():
    texts = ["12", "C", "7", "16", "G"]
    crops = [np.zeros((DOUBLE_SLOT, DOUBLE_SLOT), np.uint8)] * len(texts)
    readings = ScriptedEngine(texts).read_digits(crops, digit_symbols(16))
    assert [(r.digit, r.symbol) for r in readings] == [
        (12, "12"),
        (12, "C"),
        (7, "7"),
        (16, "16"),
        (16, "G"),
    ]


def _read(*spelled):
    return [DigitReading(d, 1.0, (), s) for d, s in spelled]


def test_a_board_printed_with_numbers_says_numbers():
    assert printed_symbols(_read((3, "3"), (10, "10"), (16, "16"), (12, "C"))) == NUMBERS


def test_a_board_printed_with_letters_says_letters():
    assert printed_symbols(_read((3, "3"), (10, "A"), (16, "G"), (12, "12"))) == LETTERS


def test_a_board_without_digits_above_nine_says_nothing():
    assert printed_symbols(_read((3, "3"), (9, "9"))) is None
    assert printed_symbols([DigitReading(12, 1.0)]) is None  # an engine that does not tell


def test_symbols_print_as_the_book_printed_them():
    assert [symbol_of(v, NUMBERS) for v in (9, 10, 16)] == ["9", "10", "16"]
    assert [symbol_of(v, None) for v in (9, 10, 16)] == ["9", "10", "16"]
    assert [symbol_of(v, LETTERS) for v in (9, 10, 16)] == ["9", "A", "G"]


@pytest.mark.parametrize("labels", [NUMBERS, LETTERS])
def test_a_sixteen_is_read_with_the_symbols_it_was_printed_with(engine, labels):
    shape = GridShape(4, 4)
    rng = np.random.default_rng(16)
    solution = random_solution(shape, rng)
    givens = np.where(rng.random(solution.shape) < 0.5, solution, 0)
    puzzle = Puzzle(shape, tuple(map(tuple, givens.tolist())))
    grid = render_grid(puzzle, cell_px=48, labels=labels, rng=rng)
    board = board_from_corners(grid.image, grid.corners, shape)
    recognised = recognise_board(board, classify_cells(board), engine)
    assert recognised.reading.givens() == puzzle.givens
    assert recognised.reading.symbols == labels
