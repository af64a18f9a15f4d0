"""A board's reading with each marked cell's ink sorted out: printed givens stay givens, a
solver's marks do not (``pipeline.recognise.ink_kinds`` decides which is which).

A handwritten entry keeps the digit the recogniser read in it. Pencil marks are read again,
glyph by glyph: each small glyph is cut out with paper around it, so the recogniser sees it
as it sees a given, and read as one digit; a glyph wider than tall (candidates written
joined up) is read as a run of two or three candidates in rising order, the order solvers
write them in.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, CellKind
from sudoku_batch.pipeline.reading import BoardReading, CellReading, InkKind
from sudoku_batch.pipeline.recognise.ink_kinds import (
    ONE_DIGIT,
    RUN_ASPECT,
    SMALLEST_CANDIDATE,
    PrintedInk,
    board_print,
    holds_candidates,
    ink_kinds,
    printed_ink,
    run_shaped,
)
from sudoku_batch.pipeline.recognise.ink_looks import glyph_look
from sudoku_batch.pipeline.recognise.ink_marks import Blob, CellInk, measure_ink
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine, digit_symbols
from sudoku_batch.pipeline.vision.diagonals import without_drawn_diagonals

# Paper kept around a candidate's glyph, as a share of its height.
CANDIDATE_PADDING = 0.35
# A candidate read with less confidence than this is left out.
MIN_CANDIDATE_CONFIDENCE = 0.5
# An empty cell this unsure of being empty held ink as deep as a given's
# (``pipeline.vision.cells``): its ink is looked at for pencil marks.
FAINT_EMPTY = 0.5
# Candidates are read on boards up to this size (one character each).
LARGEST_CANDIDATE_BOARD = 9


def with_ink(board: BoardImage, reading: BoardReading, engine: OcrEngine) -> BoardReading:
    """``reading`` (of the upright ``board``) with every playable cell's ink: its pencil
    marks and handwritten entries made empty cells holding them. An empty cell whose ink was
    as deep as a given's but did not look like one digit (``FAINT_EMPTY``) holds pencil marks
    when its ink is several small glyphs whose candidates read; it never becomes a given."""
    # A diagonal Sudoku's drawn diagonals are painted out: a line's ink is no glyph's (it
    # would join a printed digit it crosses, and its pieces stand beside it like candidates).
    pixels = (
        without_drawn_diagonals(board.pixels, board.lattice)
        if reading.shape.diagonals
        else board.pixels
    )
    gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY) if pixels.ndim == 3 else pixels
    marked = [(c.row, c.col) for c in reading.cells if c.kind is CellKind.GIVEN]
    faint = [
        (c.row, c.col)
        for c in reading.cells
        if c.kind is CellKind.EMPTY and c.confidence is not None and c.confidence <= FAINT_EMPTY
    ]
    measured = measure_ink(gray, board.lattice, marked + faint, printed=marked)
    inks = {pos: measured[pos] for pos in marked if pos in measured}
    one_digit = {
        (c.row, c.col)
        for c in reading.cells
        if c.kind is CellKind.GIVEN and (c.confidence or 0.0) >= ONE_DIGIT
    }
    digits = {
        (c.row, c.col): c.digit
        for c in reading.cells
        if c.kind is CellKind.GIVEN and c.digit is not None
    }
    looks = {pos: glyph_look(pixels, ink) for pos, ink in inks.items()}
    kinds = ink_kinds(
        inks, one_digit, digits, {pos: look for pos, look in looks.items() if look is not None}
    )
    printed = board_print(inks)
    pencilled = [pos for pos in marked if kinds.get(pos) is InkKind.PENCIL]
    pencilled += [
        pos
        for pos in faint
        if printed is not None and pos in measured and holds_candidates(measured[pos], printed)
    ]
    candidates = (
        _read_candidates(
            gray, [measured[pos] for pos in pencilled], printed_ink(inks.values()), engine
        )
        if pencilled and reading.shape.size <= LARGEST_CANDIDATE_BOARD
        else [()] * len(pencilled)
    )
    read_candidates = dict(zip(pencilled, candidates, strict=True))
    # Faint ink holds pencil marks only where candidates were read in it.
    kinds.update({pos: InkKind.PENCIL for pos in faint if read_candidates.get(pos)})
    cells = tuple(
        _with_kind(cell, kinds.get((cell.row, cell.col)), read_candidates) for cell in reading.cells
    )
    return replace(reading, cells=cells)


def _with_kind(
    cell: CellReading,
    kind: InkKind | None,
    candidates: dict[tuple[int, int], tuple[int, ...]],
) -> CellReading:
    if cell.kind is CellKind.BLOCKED:
        return cell
    if kind is InkKind.PENCIL:
        return CellReading(
            cell.row,
            cell.col,
            CellKind.EMPTY,
            ink=InkKind.PENCIL,
            candidates=candidates[cell.row, cell.col],
        )
    if cell.kind is CellKind.EMPTY:
        return replace(cell, ink=InkKind.EMPTY)
    if kind is InkKind.HANDWRITTEN:
        return replace(cell, kind=CellKind.EMPTY, ink=InkKind.HANDWRITTEN)
    return replace(cell, ink=InkKind.GIVEN)


def _read_candidates(
    gray: np.ndarray, inks: Sequence[CellInk], printed: PrintedInk, engine: OcrEngine
) -> list[tuple[int, ...]]:
    """The candidates of each pencilled cell, rising."""
    singles: list[tuple[int, np.ndarray]] = []
    runs: list[tuple[int, np.ndarray]] = []
    for index, ink in enumerate(inks):
        for blob in ink.blobs:
            if blob.height < SMALLEST_CANDIDATE * printed.height:
                continue
            crop = _glyph_crop(gray, blob)
            run = blob.width >= RUN_ASPECT * blob.height or run_shaped(blob, printed)
            (runs if run else singles).append((index, crop))
    found: list[set[int]] = [set() for _ in inks]
    for group, symbols in ((singles, digit_symbols(9)), (runs, _rising_runs())):
        if not group:
            continue
        readings = engine.read_digits([crop for _, crop in group], symbols)
        for (index, _), reading in zip(group, readings, strict=True):
            if reading.confidence >= MIN_CANDIDATE_CONFIDENCE:
                found[index].update(int(ch) for ch in str(reading.digit))
    return [tuple(sorted(digits)) for digits in found]


def _rising_runs() -> dict[str, int]:
    """Two or three distinct digits in rising order, each spelled as itself."""
    runs = {}
    for length in (2, 3):
        for digits in itertools.combinations("123456789", length):
            runs["".join(digits)] = int("".join(digits))
    return runs


def _glyph_crop(gray: np.ndarray, blob: Blob) -> np.ndarray:
    """A glyph with paper around it: a square (or, for a run, as wide as the run) crop whose
    border is filled with the paper's grey, so no neighbouring ink or line shows."""
    x, y, w, h = blob.box
    pad = int(round(CANDIDATE_PADDING * h)) + 1
    glyph = gray[y : y + h, x : x + w]
    around = gray[max(y - pad, 0) : y + h + pad, max(x - pad, 0) : x + w + pad]
    paper = float(np.percentile(around, 90))
    side_x = max(w, h) + 2 * pad
    canvas = np.full((h + 2 * pad, side_x), paper, dtype=np.uint8)
    left = (side_x - w) // 2
    canvas[pad : pad + h, left : left + w] = glyph
    return canvas
