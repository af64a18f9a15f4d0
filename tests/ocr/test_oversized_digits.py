"""Digits about twice their cells' size: their strokes that meet a grid line stay theirs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.ocr_calibration import board_from_corners as board_from_sample
from bench.recognition import DATASET, load_samples
from sudoku_batch.pipeline.board import Lattice
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.recognise.glyphs import board_glyphs, glyph_crop
from sudoku_batch.pipeline.recognise.read_board import recognise_board
from sudoku_batch.pipeline.recognise.window_lines import line_mask
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth.styles import PrintStyle, random_puzzles, styled_page

CELL = 60
# A 3x3 board of 60 px cells, its lines 2 px wide.
LINES = (1.0, 61.0, 121.0, 181.0)
LATTICE = Lattice(GridShape(3, 1), LINES, LINES)


def _board() -> np.ndarray:
    return np.full((182, 182), 235, np.uint8)


def _draw_lines(board: np.ndarray) -> None:
    for at in LINES:
        position = int(at)
        board[max(position - 1, 0) : position + 1, :] = 20
        board[:, max(position - 1, 0) : position + 1] = 20


def _ink(window: np.ndarray) -> np.ndarray:
    _, ink = cv2.threshold(window, 0, 255, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    return ink


def test_a_stem_standing_on_a_line_is_not_a_line():
    # A 4's stem 1.2 cells long (over the cell's top line) stands on its bottom line: as long
    # as the strokes that were taken for lines, it was painted out with them (the 4 read as 2
    # or 7). It lies a quarter cell off the lattice's lines.
    board = _board()
    _draw_lines(board)
    board[46:121, 100:106] = 20
    window = board[31:151, 31:151]  # the middle cell, and half a cell around it
    lattice = ([q - 31 for q in LINES], [q - 31 for q in LINES], 0.1)
    lines = line_mask(_ink(window), CELL, lattice)
    assert not lines[35:85, 71:73].any()  # the stem, between the lines
    assert lines[30, 5:115].all() and lines[5:115, 90].all()  # the grid lines


def test_a_glyph_cut_in_two_by_a_line_is_cropped_whole():
    # An oversized 7 whose bar is printed above the cell's top line and its stem below: the
    # line painted out, the crop held the stem alone, read as 1.
    board = _board()
    cv2.line(board, (70, 54), (112, 54), 20, 6)
    cv2.line(board, (112, 54), (80, 118), 20, 6)
    _draw_lines(board)
    crop = glyph_crop(board, LATTICE, 1, 1, 0.1, large_print=True).crop
    assert crop.shape[0] > 1.1 * CELL  # the bar's top (y 51) to the stem's foot (y 121)
    rows = np.count_nonzero(crop < 128, axis=1)
    assert rows.max() > 0.6 * CELL  # the bar


def test_a_neighbours_glyph_touching_across_a_line_is_left_out():
    # The 7's foot meets the bottom line where the glyph below (a blob through its own
    # centre) meets it from the other side: joined across the line, the crop would take in the
    # neighbour's glyph.
    board = _board()
    cv2.line(board, (70, 54), (112, 54), 20, 6)
    cv2.line(board, (112, 54), (80, 120), 20, 6)
    cv2.circle(board, (82, 150), 28, 20, 6)
    _draw_lines(board)
    crop = glyph_crop(board, LATTICE, 1, 1, 0.1, large_print=True).crop
    # The crop ends near the bottom line, well short of the neighbour's centre (y 151).
    assert crop.shape[0] < 1.4 * CELL


@pytest.mark.parametrize("seed", [2, 7])
def test_a_page_of_digits_twice_their_cells_is_read(engine, seed):
    # Digits 2.2 times the usual size at 150 dpi: 1 and 3 givens of the page read wrong (4s without
    # their stems, 7s and 2s cut in two by a line).
    rng = np.random.default_rng(seed)
    style = PrintStyle(thin_pt=1.0, thick_pt=3.0, digit_scale=2.2)
    page = styled_page(random_puzzles(GridShape(3, 3), 2, rng), style, dpi=150, columns=2, rng=rng)
    for found, truth in zip(rectify_page(page.image), page.grids, strict=True):
        recognised = recognise_board(found.board, found.cells, engine)
        assert [c.digit or 0 for c in recognised.reading.cells] == [
            v for row in truth.generated.puzzle.givens for v in row
        ]


@pytest.mark.shared_data
def test_digits_of_the_usual_size_on_a_lattice_off_their_lines_are_not_large_print(
    shared_data,
):
    # A real photo warped by corners moved 0.15 cell: most of its digits reach their
    # interiors' edges. Read as large print, lines off the lattice that a digit breaks were
    # taken for its strokes (bench.ocr_calibration, corners moved up to 0.15 cell: 2 -> 18
    # errors). Its glyphs are no taller than an interior: it is read as before.
    sample = {s.name: s for s in load_samples(shared_data / DATASET)}["image115"]
    cell = float(np.linalg.norm(sample.corners[1] - sample.corners[0])) / 9
    board = board_from_sample(sample, (sample.corners + 0.15 * cell).astype(np.float32))
    gray = cv2.cvtColor(board.pixels, cv2.COLOR_BGR2GRAY)
    positions = [divmod(i, 9) for i, value in enumerate(sample.givens) if value]
    glyphs = board_glyphs(gray, board.lattice, positions, 0.1)
    usual = [glyph_crop(gray, board.lattice, r, c, 0.1).crop for r, c in positions]
    large = [
        glyph_crop(gray, board.lattice, r, c, 0.1, large_print=True).crop for r, c in positions
    ]
    assert all(np.array_equal(g.crop, u) for g, u in zip(glyphs, usual, strict=True))
    assert not all(np.array_equal(g.crop, u) for g, u in zip(glyphs, large, strict=True))
