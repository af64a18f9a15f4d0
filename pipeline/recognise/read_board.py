"""The recognise stage: read a board's given cells, and turn the board upright from what they
say (pipeline.recognise.orientation decides which way up they are)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, CellImage, CellKind
from sudoku_batch.pipeline.reading import (
    BoardReading,
    CellReading,
    RecognisedBoard,
    printed_symbols,
)
from sudoku_batch.pipeline.recognise.glyphs import Glyph, board_glyphs
from sudoku_batch.pipeline.recognise.grid_kind import (
    SURE_NUMBER,
    NumberReading,
    crossed_reason,
    damage_reason,
    fragment_reason,
    other_reason,
)
from sudoku_batch.pipeline.recognise.ink_reading import with_ink
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine, digit_symbols
from sudoku_batch.pipeline.recognise.orientation import read_upright
from sudoku_batch.pipeline.recognise.remeasure import alternative_boards, contradicts
from sudoku_batch.pipeline.recognise.turns import turn_board, turn_cell
from sudoku_batch.pipeline.solve.encode import clashing_pairs
from sudoku_batch.pipeline.vision.cells import classify_cells, darkest_channel
from sudoku_batch.pipeline.vision.diagonals import without_drawn_diagonals
from sudoku_batch.pipeline.vision.lattice import cell_parts
from sudoku_batch.pipeline.vision.regions import read_regions, read_shape
from sudoku_batch.pipeline.vision.screen import descreen_blur

# The recogniser reads the whole cell interior, unstretched, better than a tight, contrast-
# stretched digit box: on the wichtounet photos warped with their true corners
# (bench/ocr_calibration.py) the cells stage's crops of 4,609 givens gave 8 errors, the
# interiors of the same cells none. This share of the cell is trimmed from each side to drop the
# grid lines.
INTERIOR_TRIM = 0.1
# What a cell is read as to see whether it holds a number no Sudoku of its size prints (a hints
# grid's 57): every number of up to two digits.
NUMBER_SYMBOLS = {str(value): value for value in range(1, 100)}


def recognise_board(
    board: BoardImage, cells: Sequence[CellImage], engine: OcrEngine
) -> RecognisedBoard:
    """The board turned upright, with every cell's reading in upright row-major order;
    ``cells`` are the board's cells as the rectify step sorted them. A board whose readings
    contradict its lattice is re-measured (``pipeline.recognise.remeasure``): then the board
    returned holds the lattice whose readings fit, and its cells sorted anew.

    A solver's marks are sorted out of the givens (``pipeline.recognise.ink_reading``) once
    the lattice stands.

    A lattice that is no Sudoku grid (``pipeline.recognise.grid_kind``) comes back with its
    reading's ``other_reason`` set: one on a damaged page, one whose cells run out of the
    image, one whose cells are crossed by further lines (unless it contradicts its lattice and
    a re-measured one fits), or one whose readings contradict each other and whose cells,
    read as numbers, hold numbers beyond its size or no one symbol."""
    recognised = read_every_mark(board, cells, engine)
    location = board.location
    if location.page_damage is not None:
        return _other(recognised, damage_reason(location.page_damage))
    fragment = fragment_reason(location.corners, board.shape.size, location.page_size)
    if fragment is not None:
        return _other(recognised, fragment)
    # The lattice is judged on every mark, as printed: a lattice measured at another size
    # holds several printed digits in a cell, which look like pencil marks.
    contradicting = contradicts(recognised.reading)
    if contradicting:
        larger = []
        for other in alternative_boards(board):
            candidate = read_every_mark(other, classify_cells(other), engine)
            if not clashing_pairs(candidate.reading.puzzle()):
                return _with_ink(candidate, engine)
            if other.shape.size > board.shape.size:
                larger.append(candidate)
        sorted_out = _clash_free_once_inked(recognised, larger, engine)
        if sorted_out is not None:
            return sorted_out
    # Asked of every board, not only of contradicting ones: cut cells can read as a few digits
    # that happen not to repeat, and a lattice across printed numbers is never a Sudoku's.
    parts = cell_parts(recognised.board.pixels, recognised.board.lattice)
    if parts > 1:
        return _other(recognised, crossed_reason(recognised.board.shape.size, parts))
    if contradicting:
        beyond = _numbers_reason(recognised, engine)
        if beyond is not None:
            return _other(recognised, beyond)
    return _with_ink(recognised, engine)


def _clash_free_once_inked(
    measured: RecognisedBoard, larger: list[RecognisedBoard], engine: OcrEngine
) -> RecognisedBoard | None:
    """The first of the readings of larger sizes that no longer contradicts its lattice once
    a solver's marks are sorted out of it (a repeat one misread cell explains is left to the
    solve step), when the measured size's reading still contradicts its own then: on a
    hand-filled board, pencil marks read as digits repeat in every lattice, so none repeats
    nothing as printed. Only larger sizes: a smaller one's cells hold several of the grid's
    printed digits, which look like pencil marks and would be sorted out as such."""
    if not larger or not contradicts(_with_ink(measured, engine).reading):
        return None
    for candidate in larger:
        inked = _with_ink(candidate, engine)
        if not contradicts(inked.reading):
            return inked
    return None


def _numbers_reason(recognised: RecognisedBoard, engine: OcrEngine) -> str | None:
    """Why the board is no Sudoku, from its printed cells read as numbers of up to two digits
    (the symbols it was read with stop at its size); None: it may be one."""
    given = [(c.row, c.col) for c in recognised.reading.cells if c.kind is CellKind.GIVEN]
    readings = engine.read_digits(cell_interiors(recognised.board, given), NUMBER_SYMBOLS)
    numbers = [
        NumberReading(row, col, reading.digit, reading.confidence)
        for (row, col), reading in zip(given, readings, strict=True)
    ]
    sure = sum(
        1
        for cell in recognised.reading.cells
        if cell.kind is CellKind.GIVEN and (cell.confidence or 0.0) >= SURE_NUMBER
    )
    return other_reason(recognised.board.shape.size, len(given), numbers, sure)


def _other(recognised: RecognisedBoard, reason: str) -> RecognisedBoard:
    return replace(recognised, reading=replace(recognised.reading, other_reason=reason))


def _with_ink(recognised: RecognisedBoard, engine: OcrEngine) -> RecognisedBoard:
    """The reading with a solver's marks sorted out of its givens
    (``pipeline.recognise.ink_reading``)."""
    return replace(recognised, reading=with_ink(recognised.board, recognised.reading, engine))


def read_every_mark(
    board: BoardImage, cells: Sequence[CellImage], engine: OcrEngine
) -> RecognisedBoard:
    """The board turned upright and every marked cell read as a given: its ink not yet
    sorted into print and a solver's marks."""
    given = [cell for cell in cells if cell.kind is CellKind.GIVEN]
    glyphs = cell_glyphs(board, [(cell.row, cell.col) for cell in given])
    turns, readings = read_upright(glyphs, engine, digit_symbols(board.shape.size))

    upright = turn_board(board, turns)
    size = board.shape.size
    read = dict(zip(((cell.row, cell.col) for cell in given), readings, strict=True))
    placed: dict[tuple[int, int], CellReading] = {}
    for cell in cells:
        row, col = turn_cell(cell.row, cell.col, size, turns)
        reading = read.get((cell.row, cell.col))
        if reading is None:
            placed[row, col] = CellReading(row, col, cell.kind, confidence=cell.confidence)
        else:
            placed[row, col] = CellReading(
                row, col, cell.kind, reading.digit, reading.confidence, reading.alternatives
            )
    ordered = tuple(placed[row, col] for row in range(size) for col in range(size))
    regions = read_regions(upright)
    reading = BoardReading(
        read_shape(upright.shape, regions),
        ordered,
        printed_symbols(readings),
        regions_certainty=regions.certainty,
    )
    return RecognisedBoard(upright, reading, turns)


def cell_interiors(board: BoardImage, positions: Sequence[tuple[int, int]]) -> list[np.ndarray]:
    """The crop each cell is read from (``cell_glyphs``)."""
    return [glyph.crop for glyph in cell_glyphs(board, positions)]


def cell_glyphs(board: BoardImage, positions: Sequence[tuple[int, int]]) -> list[Glyph]:
    """Each cell's glyph: the crop to read is the inside of the cell, lines trimmed, in grey;
    grown to hold all of a glyph printed larger than it (``pipeline.recognise.glyphs``).

    Luminance rather than the darkest channel: the darkest channel also carries the noisiest
    channel of a phone photo, and cost 6 errors in 1,704 givens where luminance cost none (red
    print is still dark enough in luminance). A diagonal Sudoku's drawn diagonals are painted
    out: a line across a 3 makes it an 8.

    On a board printed through a halftone screen the recogniser reads the board blurred over
    the screen's dot spacing, as the cells were sorted (``pipeline.vision.cells``): a coarse
    screen's dots, read as strokes, make a 3 a 2 and a 7 a 1 (bench.phantom_givens
    coarse_screen_sweep: 39 givens of 8 grids read as another digit, none blurred). The screen
    is measured where the cells stage measured it, so an unscreened board is read as before."""
    pixels = without_drawn_diagonals(board.pixels, board.lattice)
    gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY) if pixels.ndim == 3 else pixels
    blur = descreen_blur(darkest_channel(pixels))
    if blur is not None:
        gray = cv2.GaussianBlur(gray, (0, 0), blur)
    return board_glyphs(gray, board.lattice, positions, INTERIOR_TRIM)
