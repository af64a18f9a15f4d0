"""Reading each distinct glyph of a board once (pipeline.recognise.ocr.glyph_groups): groups
never mix digits, a doubtful group makes the board be read whole, and readings equal the plain
engine's."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import DigitReading
from sudoku_batch.pipeline.recognise.ocr import glyph_groups as grouping
from sudoku_batch.pipeline.recognise.ocr.base import digit_symbols
from sudoku_batch.pipeline.recognise.ocr.glyph_groups import (
    GlyphGroupingEngine,
    glyph_distances,
    glyph_groups,
)
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.synth.fonts import available_fonts
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.puzzles import random_puzzle
from tests.ocr.boards import board_from_corners
from tests.ocr.rendered import rendered_crops

SYMBOLS = digit_symbols(9)
# Each digit four times, spread over the board so that the confusable ones (6/8/9, 1/7, 3/8,
# 5/6) sit beside each other.
DIGITS = [6, 8, 9, 1, 7, 3, 5, 2, 4] * 4
FONTS = [font.name for font in available_fonts()]


class CountingEngine:
    """Passes reads on to an engine, keeping how many crops each call read."""

    def __init__(self, engine):
        self.engine, self.name, self.calls = engine, engine.name, []

    def read_digits(self, crops, symbols):
        self.calls.append(len(crops))
        return self.engine.read_digits(crops, symbols)


class ScriptedEngine:
    """Reads each crop (by identity) as told; every other crop as a sure 8."""

    name = "scripted"

    def __init__(self, script: dict[int, DigitReading]):
        self.script, self.calls = script, []

    def read_digits(self, crops, symbols):
        self.calls.append(len(crops))
        return [self.script.get(id(crop), DigitReading(8, 1.0)) for crop in crops]


def mixed_groups(crops, digits) -> list[list[int]]:
    groups = glyph_groups(glyph_distances(crops))
    return [
        [digits[i] for i in group.members]
        for group in groups
        if len({digits[i] for i in group.members}) > 1
    ]


@pytest.mark.parametrize("sigma", [0.0, 1.5, 3.0])
@pytest.mark.parametrize("font", FONTS)
def test_groups_never_mix_digits_of_a_font(font, sigma):
    crops = rendered_crops(DIGITS, font=font, sigma=sigma, noise=4.0 if sigma else 0.0)
    assert mixed_groups(crops, DIGITS) == []


@pytest.mark.parametrize("font", FONTS)
def test_sharp_print_is_grouped(font):
    # Without this the test above could pass by grouping nothing.
    crops = rendered_crops(DIGITS, font=font)
    grouped = sum(len(group.members) for group in glyph_groups(glyph_distances(crops)))
    assert grouped >= 0.75 * len(crops)


def test_a_loose_threshold_would_mix_digits(monkeypatch):
    # The figures above depend on the thresholds: loosened, the same crops make mixed groups.
    monkeypatch.setattr(grouping, "SAME_GLYPH", 0.6)
    monkeypatch.setattr(grouping, "MARGIN", 0.0)
    crops = rendered_crops(DIGITS, font=FONTS[0], sigma=3.0, noise=4.0)
    assert mixed_groups(crops, DIGITS)


def test_blank_crops_are_not_grouped():
    blank = [np.full((44, 44), 230, np.uint8) for _ in range(5)]
    assert glyph_groups(glyph_distances(blank)) == []


def eights(count: int = 5) -> list[np.ndarray]:
    return rendered_crops([8] * count)


def test_members_take_their_sure_representatives_reading():
    crops = eights()
    (group,) = glyph_groups(glyph_distances(crops))
    medoid, farthest = group.representatives
    script = {id(crops[medoid]): DigitReading(8, 0.999, ((3, 0.001),))}
    engine = ScriptedEngine(script)
    readings = GlyphGroupingEngine(engine).read_digits(crops, SYMBOLS)
    assert engine.calls == [2]
    assert readings == [
        readings[farthest] if i == farthest else script[id(crops[medoid])]
        for i in range(len(crops))
    ]


@pytest.mark.parametrize(
    ("doubted", "reading"),
    [
        ("second", DigitReading(3, 1.0)),
        ("second", DigitReading(8, 0.98)),
        ("alone", DigitReading(2, 0.9)),
    ],
    ids=["representatives disagree", "a representative unsure", "a crop read alone unsure"],
)
def test_doubt_has_the_board_read_whole(doubted, reading):
    crops = eights() + rendered_crops([1, 2, 3], seed=1)
    group = next(g for g in glyph_groups(glyph_distances(crops)) if 0 in g.members)
    assert set(group.members) == set(range(5))
    crop = crops[group.representatives[1]] if doubted == "second" else crops[6]
    engine = ScriptedEngine({id(crop): reading})
    readings = GlyphGroupingEngine(engine).read_digits(crops, SYMBOLS)
    assert engine.calls == [len(crops) - len(group.members) + 2, len(crops)]
    assert readings == engine.read_digits(crops, SYMBOLS)


def test_one_group_of_every_digit_is_still_read_right(engine, monkeypatch):
    # Every crop in one group: only the check of its two representatives (which differ)
    # keeps the readings right. With one representative they would all be one digit.
    monkeypatch.setattr(grouping, "SAME_GLYPH", 2.0)
    monkeypatch.setattr(grouping, "MARGIN", -2.0)
    crops = rendered_crops(DIGITS)
    assert len(glyph_groups(glyph_distances(crops))) == 1
    checked = GlyphGroupingEngine(engine).read_digits(crops, SYMBOLS)
    assert [r.digit for r in checked] == DIGITS
    unchecked = GlyphGroupingEngine(engine, representatives=1).read_digits(crops, SYMBOLS)
    assert len({r.digit for r in unchecked}) == 1


@pytest.mark.parametrize("font", FONTS[::4])
def test_printed_boards_read_as_the_plain_engine_reads_them(engine, font):
    rng = np.random.default_rng(3)
    puzzle = random_puzzle(GridShape(3, 3), rng, holes=47).puzzle
    grid = render_grid(puzzle, font=font, rng=rng)
    board = board_from_corners(grid.image, grid.corners, GridShape(3, 3))
    counting = CountingEngine(engine)
    plain = recognise_board(board, classify_cells(board), engine).reading
    grouped = recognise_board(board, classify_cells(board), GlyphGroupingEngine(counting)).reading
    assert [c.digit for c in grouped.cells] == [c.digit for c in plain.cells]
    givens = sum(1 for c in plain.cells if c.kind is CellKind.GIVEN)
    assert sum(counting.calls) < 0.7 * givens
