"""Which way up a board is, from its glyphs' shapes measured where the glyphs are."""

from __future__ import annotations

import json
import zlib
from dataclasses import replace

import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.ingest.sources import expand_input, load_page
from sudoku_batch.pipeline.recognise.read_board import cell_glyphs, recognise_board
from sudoku_batch.pipeline.recognise.turns import turn_board, turn_cell
from sudoku_batch.pipeline.vision.page_boards import rectify_page
from sudoku_batch.synth import degrade
from sudoku_batch.synth.grid_image import render_grid
from tests.ocr.boards import board_from_corners
from tests.ocr.test_recognise import GIVENS


def test_a_glyph_that_fills_its_interior_still_has_a_shape():
    # Bold digits 1.4 times the usual size run into every edge of their cells' interiors: cut
    # by the interior, no blob of theirs was clear of its edges, so none told its shape.
    grid = render_grid(
        Puzzle(GridShape(3, 3), GIVENS),
        cell_px=48,
        thick_px=3,
        digit_scale=1.4,
        font="DejaVuSans-Bold.ttf",
    )
    board = board_from_corners(grid.image, grid.corners, GridShape(3, 3))
    positions = [(r, c) for r in range(9) for c in range(9) if GIVENS[r][c]]
    glyphs = cell_glyphs(board, positions)
    shaped = [glyph for glyph in glyphs if glyph.aspects]
    assert len(shaped) >= 0.9 * len(glyphs)
    assert all(max(glyph.aspects) > 0 for glyph in shaped)


@pytest.fixture(scope="module")
def large_print_rough_scan(shared_data):
    # hektoplazmus/SudokuGenerator: 100 pt digits clipped by their cells, nearly square, and a
    # careless scan of them (bench.books' "rough" variant, the same pixels).
    name = "pdf/hektoplazmus__SudokuGenerator/sudoku.pdf"
    path = shared_data / "books-dev" / name
    source = next(iter(expand_input(path, label=str(path))))
    pixels = load_page(source, dpi=200).pixels
    rng = np.random.default_rng(zlib.crc32(f"{name}:1".encode()))
    return rectify_page(degrade.scan(pixels, rng, degrade.ROUGH))[0]


@pytest.mark.parametrize("turned_by", [0, 1])
def test_a_rough_scan_of_large_print_is_read_upright(engine, large_print_rough_scan, turned_by):
    # Its squarish clipped digits put the median blob at 0.02 from square on the page, -0.21
    # on the rough scan: read turned a quarter, 72 of 81 cells wrong.
    board = turn_board(large_print_rough_scan.board, turned_by)
    size = board.shape.size
    cells = [
        replace(cell, row=row, col=col)
        for cell in large_print_rough_scan.cells
        for row, col in [turn_cell(cell.row, cell.col, size, turned_by)]
    ]
    recognised = recognise_board(board, cells, engine)
    assert recognised.quarter_turns == (4 - turned_by) % 4


def test_a_rough_scan_of_large_print_is_read_right(engine, large_print_rough_scan, shared_data):
    # Its bold digits beside a cell line caught the line's trace, the straightening bent the
    # board by a third of a cell there: two empty cells held a line (read as digits), and
    # three 7s, cut there, read as 1s.
    found = large_print_rough_scan
    recognised = recognise_board(found.board, found.cells, engine)
    with open(shared_data / "books-dev" / "manifest.jsonl") as manifest:
        truth = next(json.loads(line) for line in manifest if "hektoplazmus" in line)
    givens = recognised.reading.givens()
    assert [[value or 0 for value in row] for row in givens] == truth["givens"]
