"""Ink kinds per cell: a solver's pencil marks and handwritten entries are no givens, and a
unique solution checks them (pipeline.recognise.ink_kinds, pipeline.solve.entries)."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.board import BoardLocation, CellKind
from sudoku_batch.pipeline.reading import CellReading, InkKind
from sudoku_batch.pipeline.recognise.ink_kinds import holds_candidates, ink_kinds, printed_ink
from sudoku_batch.pipeline.recognise.ink_marks import Blob, CellInk
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.entries import check_entries, with_entries_checked
from sudoku_batch.pipeline.solve.reconcile import solve_reading
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.vision.cells import classify_cells
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.pipeline.vision.rectify import rectify_board
from sudoku_batch.synth.phantom_styles import STYLES
from sudoku_batch.synth.solver_marks import marked_photo

SEEDS = (0, 1, 2, 3)


def _ink(height: float, stroke: float = 0.07, darkness: float = 0.8, offset=(0.0, 0.0), *more):
    blobs = [Blob(height, 0.6 * height, *offset, (0, 0, 1, 1), 400), *more]
    return CellInk(tuple(blobs), stroke, darkness)


def test_print_is_learnt_from_the_board_and_marks_are_judged_against_it() -> None:
    # Print 0.58 of a cell tall on this board; another board's print may be any size.
    inks = {(0, c): _ink(0.58 + 0.01 * (c % 3)) for c in range(9)}
    inks[1, 0] = _ink(0.3, 0.05, 0.6, (-0.2, -0.2))  # small, in a corner
    inks[1, 1] = _ink(
        0.35, 0.05, 0.6, (-0.15, -0.2), Blob(0.33, 0.2, 0.15, -0.2, (0, 0, 1, 1), 300)
    )
    inks[1, 2] = _ink(0.8, 0.045, 0.45)  # taller, thinner, lighter
    kinds = ink_kinds(inks)
    assert [kinds[0, c] for c in range(9)] == [InkKind.GIVEN] * 9
    assert kinds[1, 0] is kinds[1, 1] is InkKind.PENCIL
    assert kinds[1, 2] is InkKind.HANDWRITTEN
    # The same marks on a board printed smaller in its cells are judged alike.
    smaller = {
        pos: CellInk(
            tuple(
                Blob(0.75 * b.height, 0.75 * b.width, b.offset_x, b.offset_y, b.box, b.area)
                for b in ink.blobs
            ),
            0.75 * ink.stroke_width,
            ink.darkness,
        )
        for pos, ink in inks.items()
    }
    assert ink_kinds(smaller) == kinds


def test_a_board_with_few_marks_keeps_them_all_printed() -> None:
    inks = {(0, 0): _ink(0.58), (0, 1): _ink(0.3, 0.05, 0.6, (-0.2, -0.2))}
    assert set(ink_kinds(inks).values()) == {InkKind.GIVEN}


def test_entries_are_checked_against_the_solution() -> None:
    solution = tuple(tuple((r * 3 + r // 3 + c) % 9 + 1 for c in range(9)) for r in range(9))
    cells = [
        CellReading(1, 4, CellKind.EMPTY, 7, 0.9, ink=InkKind.HANDWRITTEN),
        CellReading(0, 0, CellKind.EMPTY, solution[0][0], 0.9, ink=InkKind.HANDWRITTEN),
        CellReading(2, 2, CellKind.EMPTY, ink=InkKind.PENCIL, candidates=(1, 2)),
        CellReading(3, 3, CellKind.EMPTY, ink=InkKind.PENCIL, candidates=(solution[3][3], 9)),
        CellReading(4, 4, CellKind.GIVEN, solution[4][4], 0.99, ink=InkKind.GIVEN),
    ]
    assert solution[1][4] == 8 and solution[2][2] == 9
    checks = {(c.row, c.col): c for c in check_entries(cells, solution)}
    assert set(checks) == {(1, 4), (0, 0), (2, 2), (3, 3)}
    assert checks[1, 4].finding == "r2c5: 7 written, 8 is right"
    assert not checks[1, 4].ok and checks[0, 0].ok
    assert checks[2, 2].finding == "r3c3: candidates 1 2, missing 9"
    assert checks[3, 3].ok


@pytest.fixture(scope="module")
def marked(engine):
    """Synthetic photos of puzzles a person began to solve, and their boards as read. Entries
    are written taller than the print, as on the hand-filled photos of kubiesa-train; entries
    as tall as the print are tested in test_written_entries.py (bench/ink_kinds.py measures
    the whole range)."""
    read = []
    for seed in SEEDS:
        photo = marked_photo(np.random.default_rng(seed), written_height=(0.72, 0.85))
        (board,) = rectify_page(photo.image)
        read.append((photo, recognise_board(board.board, board.cells, engine).reading))
    return read


def test_pencil_marks_never_become_givens(marked) -> None:
    pencilled = read_as_pencil = 0
    for photo, reading in marked:
        for cell in reading.cells:
            if photo.ink.get((cell.row, cell.col)) is InkKind.PENCIL:
                pencilled += 1
                assert cell.kind is not CellKind.GIVEN, (photo.candidates, cell)
                read_as_pencil += cell.ink is InkKind.PENCIL
    # Most are read as pencil marks (the smallest may be passed over as empty).
    assert pencilled > 20 and read_as_pencil >= 0.5 * pencilled


def test_the_printed_puzzle_is_solved_and_the_entries_are_checked(marked) -> None:
    backend = make_backend()
    entries = 0
    for photo, reading in marked:
        # No printed given is lost; an entry written as large as the print may pass for one.
        read = reading.puzzle().givens
        for r, row in enumerate(photo.puzzle.givens):
            for c, given in enumerate(row):
                assert not given or read[r][c] == given
        solution = with_entries_checked(solve_reading(reading, backend, 10.0), reading)
        if solution.result.verdict is not Verdict.SOLVED:
            continue
        assert solution.result.solution == photo.solution
        for check in solution.entries_check or ():
            truth = photo.ink[check.row, check.col]
            assert check.ink is truth
            if truth is InkKind.HANDWRITTEN:
                entries += 1
                written = photo.written[check.row, check.col]
                assert check.written == (written,)
                assert check.ok == (written == check.right)
    assert entries >= 10


@pytest.mark.parametrize("style", sorted(STYLES))
def test_faint_ink_of_empty_cells_is_no_pencil_mark_on_clean_puzzles(engine, style) -> None:
    # Shadows, line remnants and halftone dots leave given-deep ink in empty cells; the ink
    # stage looks at it for pencil marks and must find none on a puzzle nobody wrote in.
    for seed in (1, 2):
        photo = STYLES[style](np.random.default_rng(seed))
        (corners,) = photo.corners
        board = rectify_board(photo.image, BoardLocation(corners))
        reading = recognise_board(board, classify_cells(board), engine).reading
        assert [c for c in reading.cells if c.ink is InkKind.PENCIL] == []


def test_several_small_glyphs_hold_candidates_and_one_glyph_or_dots_do_not() -> None:
    printed = printed_ink([_ink(0.6)] * 9)
    small = Blob(0.3, 0.2, 0.15, -0.2, (0, 0, 1, 1), 300)
    dot = Blob(0.1, 0.1, 0.1, 0.1, (0, 0, 1, 1), 20)
    assert holds_candidates(_ink(0.3, 0.05, 0.6, (-0.2, -0.2), small), printed)
    assert not holds_candidates(_ink(0.3, 0.05, 0.6, (-0.2, -0.2)), printed)
    assert not holds_candidates(_ink(0.3, 0.05, 0.6, (-0.2, -0.2), dot, dot), printed)
    assert not holds_candidates(_ink(0.58, 0.07, 0.8, (0.0, 0.0), small), printed)
