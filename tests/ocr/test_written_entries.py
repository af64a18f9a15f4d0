"""Handwritten entries as tall as the print are told from it by how their ink looks (colour,
slant, shape against the board's own print of the same digit), never at the cost of a printed
given (pipeline.recognise.ink_looks, pipeline.recognise.ink_looks_judged)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.ink_kinds import _hands_photo
from sudoku_batch.pipeline.reading import InkKind
from sudoku_batch.pipeline.recognise.ink_kinds import ink_kinds
from sudoku_batch.pipeline.recognise.ink_looks import SHAPE_SIZE, GlyphLook
from sudoku_batch.pipeline.recognise.ink_marks import Blob, CellInk
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.entries import with_entries_checked
from sudoku_batch.pipeline.solve.reconcile import solve_reading
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.photo import RED_INK_BGR
from sudoku_batch.synth.solver_marks import OTHER_HAND, Pen, written_photo

BLUE, RED, GREEN, BLACK = (150, 60, 20), (40, 40, 180), (60, 120, 40), (40, 40, 40)


def _ink(height: float = 0.58) -> CellInk:
    return CellInk((Blob(height, 0.6 * height, 0.0, 0.0, (0, 0, 1, 1), 400),), 0.07, 0.8)


def _look(chroma: tuple[float, float]) -> GlyphLook:
    return GlyphLook(chroma, 0.0, np.full((SHAPE_SIZE, SHAPE_SIZE), 1.0 / SHAPE_SIZE))


@pytest.mark.parametrize(
    ("printed", "written"),
    [((0.0, 0.0), (-5.0, -30.0)), ((45.0, 30.0), (0.0, 0.0)), ((8.0, 12.0), (2.0, -20.0))],
    ids=["blue pen on black print", "black pen on red print", "blue pen under a warm cast"],
)
def test_a_glyph_as_tall_as_the_print_in_another_ink_is_an_entry(printed, written) -> None:
    rng = np.random.default_rng(0)
    inks = {(r, c): _ink(0.58 + 0.01 * (c % 3)) for r in range(2) for c in range(9)}
    looks = {pos: _look(tuple(np.add(printed, rng.normal(0, 1.0, 2)))) for pos in inks}
    inks[2, 0], looks[2, 0] = _ink(0.58), _look(written)
    kinds = ink_kinds(inks, looks=looks)
    assert kinds.pop((2, 0)) is InkKind.HANDWRITTEN
    assert set(kinds.values()) == {InkKind.GIVEN}


def _bar(slant: float) -> np.ndarray:
    """A digit 1's shape: a bar, leaning right by ``slant``."""
    shape = np.zeros((SHAPE_SIZE, SHAPE_SIZE), np.float32)
    for y in range(SHAPE_SIZE):
        x = int(round(SHAPE_SIZE / 2 + slant * (SHAPE_SIZE / 2 - y)))
        shape[y, max(x - 1, 0) : x + 2] = 1.0
    return shape / np.linalg.norm(shape)


def test_a_printed_glyph_sheared_alone_stays_printed() -> None:
    # A scan or a page's bend can shear one printed glyph as a hand would slant it; its ink
    # stays the print's, so its shape alone never makes it an entry.
    inks = {(r, c): _ink(0.58) for r in range(2) for c in range(9)}
    looks = {pos: GlyphLook((0.0, 0.0), 0.0, _bar(0.0)) for pos in inks}
    digits = {pos: 1 + pos[1] % 3 for pos in inks}
    looks[0, 0] = GlyphLook((0.0, 0.0), 0.35, _bar(0.35))
    kinds = ink_kinds(inks, digits=digits, looks=looks)
    assert set(kinds.values()) == {InkKind.GIVEN}


def _shapes(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """``count`` unlike glyph shapes of unit norm."""
    shapes = rng.random((count, SHAPE_SIZE, SHAPE_SIZE)).astype(np.float32) ** 4
    return [shape / np.linalg.norm(shape) for shape in shapes]


def _copy(shape: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another print of a glyph: the same shape, a photo's noise apart."""
    noisy = np.clip(shape + rng.normal(0.0, 0.002, shape.shape), 0.0, None).astype(np.float32)
    return noisy / np.linalg.norm(noisy)


def _printed_board(rng: np.random.Generator):
    """A board printing digits 1-9 three times each in black: its inks, digits and looks."""
    prints = _shapes(rng, 9)
    inks, digits, looks = {}, {}, {}
    for r in range(3):
        for c in range(9):
            inks[r, c], digits[r, c] = _ink(0.58), c + 1
            looks[r, c] = GlyphLook((0.0, 0.0), 0.0, _copy(prints[c], rng))
    return inks, digits, looks


def test_a_glyph_in_the_print_s_ink_unlike_every_copy_of_its_digit_is_an_entry() -> None:
    # A font prints a digit alike each time; a hand writing in black as tall as the print
    # does not write the print's shape: its colour, height and stroke alone do not tell it.
    rng = np.random.default_rng(3)
    inks, digits, looks = _printed_board(rng)
    (written,) = _shapes(np.random.default_rng(4), 1)
    inks[3, 0], digits[3, 0] = _ink(0.6), 5
    looks[3, 0] = GlyphLook((0.0, 0.0), 0.0, written)
    kinds = ink_kinds(inks, set(inks), digits, looks)
    assert kinds.pop((3, 0)) is InkKind.HANDWRITTEN
    assert set(kinds.values()) == {InkKind.GIVEN}


def _hand_writing_a_digit_twice(rng: np.random.Generator, height: float):
    """A board printing digits 1-9 three times each, and a 5 written twice in black, each
    ``height`` cells tall, alike (a hand writes a digit roughly alike) but unlike the
    print's 5: inks, digits and looks."""
    inks, digits, looks = _printed_board(rng)
    (hand,) = _shapes(np.random.default_rng(4), 1)
    for pos in [(3, 0), (3, 1)]:
        inks[pos], digits[pos] = _ink(height), 5
        looks[pos] = GlyphLook((0.0, 0.0), 0.0, _copy(hand, rng))
    return inks, digits, looks


def test_a_digit_written_alike_twice_unlike_its_print_is_an_entry_each_time() -> None:
    # Each written 5 has a near copy, the other: it is still no copy of the print's 5, whose
    # copies stand apart from both (main read both as givens).
    inks, digits, looks = _hand_writing_a_digit_twice(np.random.default_rng(3), 0.6)
    kinds = ink_kinds(inks, set(inks), digits, looks)
    assert kinds.pop((3, 0)) is InkKind.HANDWRITTEN
    assert kinds.pop((3, 1)) is InkKind.HANDWRITTEN
    assert set(kinds.values()) == {InkKind.GIVEN}


def test_a_digit_printed_alike_stays_printed_beside_a_hand_s_copies_further_off() -> None:
    # The same board with the print's 5s further from the board's print than the written
    # 5s: either pair may be the hand's, so the print's 5s, each with its copies, stay.
    inks, digits, looks = _hand_writing_a_digit_twice(np.random.default_rng(3), 0.58)
    for pos in [(0, 4), (1, 4), (2, 4)]:
        inks[pos] = _ink(0.62)
    kinds = ink_kinds(inks, set(inks), digits, looks)
    assert {kinds[pos] for pos in kinds if pos[0] < 3} == {InkKind.GIVEN}


@pytest.mark.parametrize(
    "case",
    ["unsure", "copies disagree", "wider than tall", "copies depart further", "on a fill"],
)
def test_a_glyph_unlike_its_digit_s_print_stays_printed_without_copies_or_surely_one_digit(
    case,
) -> None:
    # A print read unsurely may be joined to other ink; a digit whose other glyphs are not
    # copies of one another has no print to compare with; ink as wide as tall is joined up;
    # copies further from the board's print than the glyph are a hand's digit written alike;
    # a glyph on a fill parts from its paper otherwise than its copies on white.
    rng = np.random.default_rng(3)
    inks, digits, looks = _printed_board(rng)
    unlike = _shapes(np.random.default_rng(4), 4)
    inks[3, 0], digits[3, 0] = _ink(0.6), 5
    looks[3, 0] = GlyphLook((0.0, 0.0), 0.0, unlike[0])
    sure = set(inks) - {(3, 0)} if case == "unsure" else set(inks)
    if case == "copies disagree":
        for index, pos in enumerate([(0, 4), (1, 4), (2, 4)]):
            looks[pos] = GlyphLook((0.0, 0.0), 0.0, unlike[index + 1])
    if case == "wider than tall":
        inks[3, 0] = CellInk((Blob(0.5, 0.55, 0.0, 0.0, (0, 0, 1, 1), 400),), 0.07, 0.8)
    if case == "copies depart further":
        inks[0, 4] = inks[1, 4] = inks[2, 4] = _ink(0.62)
    if case == "on a fill":
        looks[3, 0] = GlyphLook((0.0, 0.0), 0.0, unlike[0], paper=(230.0, 5.0, 25.0))
    kinds = ink_kinds(inks, sure, digits, looks)
    assert kinds[3, 0] is InkKind.GIVEN


CELL_PX = 64


def _sized_ink(height: float, stroke: float) -> CellInk:
    """One glyph ``height`` cells tall (its box in pixels of a ``CELL_PX`` cell) of strokes
    ``stroke`` cells wide."""
    pixels = int(round(height * CELL_PX))
    box = (0, 0, int(0.6 * pixels), pixels)
    return CellInk((Blob(height, 0.6 * height, 0.0, 0.0, box, 400),), stroke, 0.8)


def _print_in_perspective(rng: np.random.Generator):
    """A board printing digits 1-9 three times each in black, its print larger towards the
    bottom right (a photo's perspective, its strokes blurred wider with it) and its 7 shorter
    and its 1 bolder than the other digits, as a font draws them: inks, digits and looks."""
    prints = _shapes(rng, 9)
    inks, digits, looks = {}, {}, {}
    for r in range(3):
        for c in range(9):
            digit = c + 1
            size = np.exp(0.01 * r + 0.006 * c + rng.normal(0.0, 0.003))
            height = 0.58 * size * (0.9 if digit == 7 else 1.0)
            stroke = 0.07 * size * (1.2 if digit == 1 else 1.0) * np.exp(rng.normal(0.0, 0.01))
            inks[r, c], digits[r, c] = _sized_ink(height, stroke), digit
            looks[r, c] = GlyphLook((0.0, 0.0), 0.0, _copy(prints[c], rng))
    return inks, digits, looks, prints


def test_a_glyph_in_the_print_s_ink_and_shape_off_the_print_s_size_where_it_stands_is_an_entry():
    # A hand writing in black, as tall as the print and in its digit's shape, is told by its
    # height and stroke against what the print measures where it stands: a font's copies of
    # a digit keep both, while the print grows across the photo and differs digit by digit.
    # A digit printed once among three alike in a hand keeps its print: those copies depart
    # further from the board's print than it does.
    rng = np.random.default_rng(5)
    inks, digits, looks, prints = _print_in_perspective(rng)
    inks[3, 0], digits[3, 0] = _sized_ink(0.58 * 1.15, 0.07 * 2.0), 6
    looks[3, 0] = GlyphLook((0.0, 0.0), 0.0, _copy(prints[5], rng))
    (hand,) = _shapes(np.random.default_rng(6), 1)
    for pos in [(1, 4), (2, 4), (3, 1)]:
        inks[pos], digits[pos] = _sized_ink(0.58 * 1.1, 0.07 * 1.6), 5
        looks[pos] = GlyphLook((0.0, 0.0), 0.0, _copy(hand, rng))
    kinds = ink_kinds(inks, set(inks), digits, looks)
    assert kinds.pop((3, 0)) is InkKind.HANDWRITTEN
    assert kinds[0, 4] is InkKind.GIVEN
    assert {kinds[pos] for pos in kinds if pos[0] < 3 and pos[1] != 4} == {InkKind.GIVEN}


def _read(photo, engine):
    (board,) = rectify_page(photo.image)
    return recognise_board(board.board, board.cells, engine).reading


def _lost_and_missed(photo, reading) -> tuple[int, int]:
    """Printed givens not read as givens, and entries read as givens."""
    lost = missed = 0
    for cell in reading.cells:
        truth = photo.ink.get((cell.row, cell.col))
        lost += truth is InkKind.GIVEN and cell.ink is not InkKind.GIVEN
        missed += truth is InkKind.HANDWRITTEN and cell.ink is InkKind.GIVEN
    return lost, missed


@pytest.mark.parametrize(
    ("pen", "print_bgr"),
    [
        (Pen(BLUE, 3.0, 0.0), None),
        (Pen(RED, 2.5, 0.15), None),
        (Pen(GREEN, 3.0, 0.1, OTHER_HAND), None),
        (Pen(BLACK, 3.0, 0.05), RED_INK_BGR),
    ],
    ids=["blue upright", "red slanted", "green other hand", "black on red print"],
)
def test_entries_as_tall_as_the_print_in_another_ink_are_entries(engine, pen, print_bgr) -> None:
    # Right entries only: a wrong one clashes with the givens while every mark is read as print,
    # and a board that clashes is measured again (pipeline.recognise.remeasure), which is
    # another matter than how its ink is sorted.
    entries = missed_total = 0
    for seed in (1, 2):
        photo = written_photo(
            np.random.default_rng(seed), pen, wrong_share=0.0, print_bgr=print_bgr
        )
        lost, missed = _lost_and_missed(photo, _read(photo, engine))
        assert lost == 0
        entries += len(photo.written)
        missed_total += missed
    assert missed_total <= 0.1 * entries


def test_entries_as_tall_as_the_print_are_checked_against_the_solution(engine) -> None:
    backend = make_backend()
    checked = 0
    for seed in (1, 2, 3):
        photo = written_photo(np.random.default_rng(seed), Pen(BLUE, 3.0, 0.1))
        reading = _read(photo, engine)
        solution = with_entries_checked(solve_reading(reading, backend, 10.0), reading)
        assert solution.result.verdict is Verdict.SOLVED
        assert solution.result.solution == photo.solution
        for check in solution.entries_check or ():
            written = photo.written[check.row, check.col]
            assert check.written == (written,)
            assert check.ok == (written == check.right)
            checked += 1
    assert checked >= 0.9 * 3 * 6


@pytest.mark.parametrize("print_bgr", [None, RED_INK_BGR], ids=["black print", "red print"])
def test_upright_print_is_never_read_as_handwritten(engine, print_bgr) -> None:
    for seed in (4, 5, 6):
        photo = written_photo(np.random.default_rng(seed), Pen(BLACK, 3.0, 0.0), (0, 0))
        reading = _read(photo, engine)
        assert [cell for cell in reading.cells if cell.ink is InkKind.HANDWRITTEN] == []


@pytest.mark.parametrize(
    "pen", [Pen(BLACK, 3.0, 0.0), Pen(BLACK, 2.5, 0.0, OTHER_HAND), Pen(BLACK, 3.5, 0.2)]
)
def test_many_entries_in_the_print_s_ink_never_cost_a_given(engine, pen) -> None:
    # The same digit written several times alike may outnumber its print: its print is then
    # not judged by them.
    for seed in (100, 101):
        photo = written_photo(np.random.default_rng(seed), pen, (14, 20), wrong_share=0.0)
        lost, _ = _lost_and_missed(photo, _read(photo, engine))
        assert lost == 0


@pytest.mark.parametrize("font", ["DejaVuSans-Oblique.ttf", "DejaVuSerif-Italic.ttf"])
def test_print_in_a_slanted_font_among_many_black_entries_is_never_lost(engine, font) -> None:
    # Print in a face no threshold was measured on, slanted as a hand slants, with as many
    # entries in black as there are givens: each printed digit's copies still match.
    photo = written_photo(
        np.random.default_rng(7), Pen(BLACK, 3.0, 0.2), (14, 20), wrong_share=0.0, font=font
    )
    lost, _ = _lost_and_missed(photo, _read(photo, engine))
    assert lost == 0


def test_black_entries_in_another_face_off_the_print_s_size_are_entries(engine) -> None:
    # Black entries as tall as the print, in the plain hand, on print in two of synth's
    # faces (bench.ink_kinds --sources hands): their shape is near enough their digit's print
    # and their ink is the print's, but the print's copies keep one size where they stand
    # and the entries do not (main reads 20 of these 22 entries as givens).
    lost = missed = entries = 0
    for seed in (24, 27):
        photo = _hands_photo(seed)
        counts = _lost_and_missed(photo, _read(photo, engine))
        lost, missed, entries = lost + counts[0], missed + counts[1], entries + len(photo.written)
    assert lost == 0
    assert missed <= 0.65 * entries
