"""The puzzle page marks as doubtful exactly the cells whose reading keeps the grid from being
certified for confidence (``pipeline.certify``): a given or an empty cell read below the
settings' thresholds, not one a person corrected since."""

from __future__ import annotations

import re

import numpy as np

from sudoku_batch.api.ui import cells_shown
from sudoku_batch.jobs.steps import SolveOptions, solve_reading_step
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.certify import (
    LOW_CONFIDENCE_EMPTY,
    LOW_CONFIDENCE_GIVEN,
    BoardFacts,
    CertifyPolicy,
)
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.reading import BoardReading, CellReading
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.store.corrections import CellValue
from sudoku_batch.synth.unique import unique_puzzle

POLICY = CertifyPolicy()


def test_the_doubtful_cells_are_those_certification_names() -> None:
    generated = unique_puzzle(GridShape(3, 3), np.random.default_rng(27), givens=30)
    givens = generated.puzzle.givens
    places = [(r, c) for r in range(9) for c in range(9)]
    unsure, corrected = [(r, c) for r, c in places if givens[r][c]][:2]
    empty = next((r, c) for r, c in places if not givens[r][c])
    # Just below each threshold; the corrected given far below, but certain now.
    confidence = {unsure: POLICY.confident_reading - 0.02, corrected: 0.5}
    confidence[empty] = POLICY.confident_empty - 0.1
    read = [
        CellReading(
            r,
            c,
            CellKind.GIVEN if givens[r][c] else CellKind.EMPTY,
            givens[r][c] or None,
            confidence.get((r, c), 0.999),
        )
        for r, c in places
    ]
    # The solve step reads a corrected cell as certain.
    as_solved = [
        CellReading(cell.row, cell.col, cell.kind, cell.digit, None)
        if (cell.row, cell.col) == corrected
        else cell
        for cell in read
    ]
    options = SolveOptions(make_backend(), 30.0, policy=POLICY)
    reading = BoardReading(generated.puzzle.shape, tuple(as_solved))
    certificate = solve_reading_step(reading, options, None, BoardFacts()).solution.certificate
    assert certificate is not None
    named = {
        (int(r) - 1, int(c) - 1)
        for reason in certificate.reasons
        if reason.code in (LOW_CONFIDENCE_GIVEN, LOW_CONFIDENCE_EMPTY)
        for r, c in re.findall(r"r(\d+)c(\d+)", reason.message)
    }

    record = {
        "cells": [
            {
                "row": cell.row,
                "col": cell.col,
                "kind": str(cell.kind),
                "digit": cell.digit,
                "confidence": cell.confidence,
            }
            for cell in read
        ],
        "doubts": [],
        "solution": None,
    }
    now = {corrected: CellValue(CellKind.GIVEN, givens[corrected[0]][corrected[1]])}
    doubtful = {(c["row"], c["col"]) for c in cells_shown(record, now, POLICY) if c["doubtful"]}
    assert doubtful == named == {unsure, empty}
