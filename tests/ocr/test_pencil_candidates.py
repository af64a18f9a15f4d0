"""Candidates as solvers also write them: one alone in a corner of its cell, or two side by
side nearly as tall as the print, against the cell's side, joined up or not. They are pencil
marks, never givens, and the print beside them stays printed."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.reading import InkKind
from sudoku_batch.pipeline.recognise.ink_kinds import ink_kinds
from sudoku_batch.pipeline.recognise.ink_marks import Blob, CellInk
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.solver_marks import candidates_photo

SEEDS = range(6)
PRINT_HEIGHT = 0.58


def _glyph(height: float, width: float, offset=(0.0, 0.0), edge: bool = False) -> Blob:
    return Blob(height, width, *offset, (0, 0, 1, 1), int(1000 * height * width), edge)


def _cell(*blobs: Blob, stroke: float = 0.07, darkness: float = 0.8) -> CellInk:
    return CellInk(tuple(blobs), stroke, darkness)


def _board(**marks: CellInk) -> dict[tuple[int, int], CellInk]:
    """Nine printed cells (print 0.58 of a cell tall, 0.37 wide) and ``marks`` in row 1."""
    inks = {(0, c): _cell(_glyph(PRINT_HEIGHT + 0.01 * (c % 3), 0.37)) for c in range(9)}
    inks.update({(1, int(col[1:])): ink for col, ink in marks.items()})
    return inks


def test_a_lone_candidate_in_a_corner_is_pencil_however_sure_the_recogniser_is() -> None:
    inks = _board(
        c0=_cell(_glyph(0.4, 0.27, (-0.28, -0.22), edge=True), stroke=0.06),
        c1=_cell(_glyph(0.36, 0.2, (0.26, 0.25))),
        # Print shifted down only, or cut short at its top: centred across, so printed.
        c2=_cell(_glyph(0.45, 0.37, (0.0, 0.14), edge=True)),
    )
    kinds = ink_kinds(inks, one_digit=set(inks))
    assert kinds[1, 0] is kinds[1, 1] is InkKind.PENCIL
    assert kinds[1, 2] is InkKind.GIVEN
    assert [kinds[0, c] for c in range(9)] == [InkKind.GIVEN] * 9


def test_candidates_joined_up_against_the_cells_side_are_pencil() -> None:
    inks = _board(
        c0=_cell(_glyph(0.56, 0.56, (-0.15, -0.08), edge=True)),
        c1=_cell(_glyph(0.42, 0.54, (-0.2, -0.22), edge=True)),
        # Print joined to a line's remnant: as wide, but taller than the print by the gap.
        c2=_cell(_glyph(0.74, 0.8, (0.0, -0.08), edge=True)),
    )
    kinds = ink_kinds(inks)
    assert kinds[1, 0] is kinds[1, 1] is InkKind.PENCIL
    assert kinds[1, 2] is InkKind.GIVEN


def test_two_candidates_nearly_as_tall_as_the_print_are_pencil() -> None:
    inks = _board(
        c0=_cell(_glyph(0.52, 0.33, (-0.22, -0.12)), _glyph(0.5, 0.27, (0.05, -0.15))),
        # A print beside a sliver of line: the sliver is no glyph.
        c1=_cell(_glyph(PRINT_HEIGHT, 0.37), _glyph(0.52, 0.02, (-0.4, 0.05))),
    )
    kinds = ink_kinds(inks)
    assert kinds[1, 0] is InkKind.PENCIL
    assert kinds[1, 1] is InkKind.GIVEN


def test_candidates_side_by_side_taller_than_the_print_are_pencil() -> None:
    inks = _board(
        # A 9 beside a 1, both a little taller than the print (most ink first, as measured).
        c0=_cell(_glyph(0.66, 0.3, (0.0, 0.0)), _glyph(0.62, 0.2, (-0.3, 0.0))),
        # A print beside a line's blurred remnant at the cell's edge, taller than the print.
        c1=_cell(_glyph(0.57, 0.28, (-0.07, 0.0)), _glyph(0.84, 0.28, (0.28, 0.0), edge=True)),
        # A print standing a little taller (a font's 7 reaching low) beside a short piece of
        # a line: the piece is no digit in a row with it.
        c2=_cell(_glyph(0.66, 0.37), _glyph(0.16, 0.16, (-0.3, 0.21))),
    )
    kinds = ink_kinds(inks)
    assert kinds[1, 0] is InkKind.PENCIL
    assert kinds[1, 1] is kinds[1, 2] is InkKind.GIVEN
    assert [kinds[0, c] for c in range(9)] == [InkKind.GIVEN] * 9


def test_candidates_nearly_as_tall_as_the_print_narrower_than_a_long_run_are_pencil() -> None:
    """A narrow 1 beside a 4, or two candidates joined in a top corner, nearly as tall as the
    print: wider than one printed digit of their height, though under 1.4 print widths."""
    inks = _board(
        c0=_cell(_glyph(0.53, 0.17, (-0.23, -0.05)), _glyph(0.47, 0.26, (0.06, -0.02))),
        c1=_cell(_glyph(0.54, 0.5, (-0.17, -0.16), edge=True)),
        # A print that lost its top (faint), as wide as a broad digit: printed.
        c2=_cell(_glyph(0.4, 0.45, (0.0, 0.05))),
    )
    kinds = ink_kinds(inks)
    assert kinds[1, 0] is kinds[1, 1] is InkKind.PENCIL
    assert kinds[1, 2] is InkKind.GIVEN
    assert [kinds[0, c] for c in range(9)] == [InkKind.GIVEN] * 9


def test_small_ink_against_the_cells_side_is_pencil_however_sure_the_recogniser_is() -> None:
    inks = _board(
        # A candidate against the left side, a little above the middle.
        c0=_cell(_glyph(0.49, 0.21, (-0.32, -0.08), edge=True)),
        # A print as tall as the board's, however far off: printed.
        c1=_cell(_glyph(PRINT_HEIGHT, 0.37, (-0.26, 0.0), edge=True)),
    )
    kinds = ink_kinds(inks, one_digit=set(inks))
    assert kinds[1, 0] is InkKind.PENCIL
    assert kinds[1, 1] is InkKind.GIVEN


@pytest.fixture(scope="module")
def read(engine):
    photos = []
    for seed in SEEDS:
        photo = candidates_photo(np.random.default_rng(seed))
        (board,) = rectify_page(photo.image)
        photos.append((photo, recognise_board(board.board, board.cells, engine).reading))
    return photos


def test_lone_and_paired_candidates_on_photos_are_no_givens(read) -> None:
    lone = pairs = pairs_as_givens = 0
    for photo, reading in read:
        for cell in reading.cells:
            pos = cell.row, cell.col
            if photo.ink[pos] is InkKind.GIVEN:
                assert cell.ink is InkKind.GIVEN, cell
                assert cell.digit == photo.puzzle.givens[cell.row][cell.col], cell
            elif photo.ink[pos] is InkKind.PENCIL and len(photo.candidates[pos]) == 1:
                lone += 1
                assert cell.kind is not CellKind.GIVEN, (photo.candidates[pos], cell)
            elif photo.ink[pos] is InkKind.PENCIL:
                pairs += 1
                pairs_as_givens += cell.kind is CellKind.GIVEN
    # A pair the recogniser is sure of as one digit, and narrow (a 1 beside a 7), may pass
    # for a given.
    assert lone >= 20 and pairs >= 10
    assert pairs_as_givens <= 0.25 * pairs
