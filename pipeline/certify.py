"""Certified or needs review: whether a grid's outcome can be trusted without a person's look.

A grid is certified only when nothing about it is in doubt: every given was read at the
confident threshold or above and every empty cell was sure to be empty, no reading was doubted,
the page decoded cleanly, the lattice is a Sudoku grid whose box shape was seen (or is the
size's only one) and whose regions were read without doubt, and the solution is the one
solution, checked by code that shares nothing with the solver. Anything else is a
``ReviewReason``: a machine code and a message.

The thresholds are calibrated by ``bench.certified`` on readings against their truth: the
digit threshold chiefly decides whether a doubted reading is a misread or a misprint; the
empty-cell one keeps a blank as dark as a given out of a certified grid.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_batch.pipeline.board import BoardImage, CellKind
from sudoku_batch.pipeline.reading import BoardReading, InkKind
from sudoku_batch.pipeline.solve.check import solution_problems
from sudoku_batch.pipeline.solve.result import Certificate, PuzzleSolution, ReviewReason, Verdict
from sudoku_batch.pipeline.vision.regions import DOUBTFUL_BELOW

# A reading at or above these is confident (see the module notes for how they were chosen).
DEFAULT_CONFIDENT_READING = 0.97
DEFAULT_CONFIDENT_EMPTY = 0.5

# The machine codes of ReviewReason.
DAMAGED_PAGE = "damaged_page"
NOT_SUDOKU = "not_sudoku"
LATTICE_UNCERTAIN = "lattice_uncertain"
REGIONS_UNCERTAIN = "regions_uncertain"
LOW_CONFIDENCE_GIVEN = "low_confidence_given"
LOW_CONFIDENCE_EMPTY = "low_confidence_empty"
DOUBTED_READING = "doubted_reading"
UNSOLVABLE = "unsolvable"
NOT_UNIQUE = "not_unique"
TIMEOUT = "timeout"
SOLUTION_UNCHECKED = "solution_unchecked"
ENTRIES_AS_PRINT = "entries_as_print"

_VERDICT_REASONS = {
    Verdict.UNSOLVABLE: (UNSOLVABLE, "the puzzle as read has no solution"),
    Verdict.INVALID: (UNSOLVABLE, "the digits read clash"),
    Verdict.MULTIPLE_SOLUTIONS: (NOT_UNIQUE, "the puzzle as read has more than one solution"),
    Verdict.TIMEOUT: (TIMEOUT, "the solver ran out of time before deciding"),
}
# Cells named in a message before it says how many more.
_CELLS_NAMED = 3


@dataclass(frozen=True)
class CertifyPolicy:
    """The thresholds of a confident reading: a given's digit probability, and an empty cell's
    confidence that it is empty."""

    confident_reading: float = DEFAULT_CONFIDENT_READING
    confident_empty: float = DEFAULT_CONFIDENT_EMPTY


@dataclass(frozen=True)
class BoardFacts:
    """What the certificate needs of the board beyond its reading: the decoder's warning when
    its page's file is damaged, and whether its box shape was seen (thicker lines) rather
    than assumed."""

    damaged: str | None = None
    box_measured: bool = True

    @classmethod
    def of_board(cls, board: BoardImage) -> BoardFacts:
        return cls(board.location.page_damage, board.lattice.box_lines)


def certify(
    reading: BoardReading | None,
    solution: PuzzleSolution,
    board: BoardFacts,
    policy: CertifyPolicy,
) -> Certificate:
    """The certificate of ``solution``, solved from ``reading`` (None: typed givens, certain)."""
    reasons = [*_board_reasons(reading, solution, board)]
    if reading is not None:
        reasons += _reading_reasons(reading, policy)
    if solution.doubts:
        cells = [f"r{d.row + 1}c{d.col + 1} read {d.read}" for d in solution.doubts]
        reasons.append(
            ReviewReason(DOUBTED_READING, "readings set aside to solve it: " + _listed(cells))
        )
    reasons += _verdict_reasons(solution)
    return Certificate(not reasons, tuple(reasons))


def _board_reasons(
    reading: BoardReading | None, solution: PuzzleSolution, board: BoardFacts
) -> list[ReviewReason]:
    reasons = []
    if board.damaged is not None:
        reasons.append(ReviewReason(DAMAGED_PAGE, f"the page's file is damaged ({board.damaged})"))
    other = reading.other_reason if reading is not None else None
    if other is not None or solution.result.verdict is Verdict.NOT_SUDOKU:
        reasons.append(ReviewReason(NOT_SUDOKU, other or solution.result.message))
    shape = solution.puzzle.shape
    if not board.box_measured and shape.box_rows != shape.box_cols:
        reasons.append(
            ReviewReason(
                LATTICE_UNCERTAIN,
                f"no thicker box lines were seen: the {shape.box_rows}x{shape.box_cols} boxes "
                "are assumed",
            )
        )
    certainty = reading.regions_certainty if reading is not None else None
    if certainty is not None and certainty < DOUBTFUL_BELOW:
        reasons.append(
            ReviewReason(
                REGIONS_UNCERTAIN,
                f"the regions read ({shape.variant}) are in doubt: another partition fits the "
                f"printed lines almost as well (certainty {certainty:.2f})",
            )
        )
    return reasons


def unsure_reading(kind: CellKind, confidence: float | None, policy: CertifyPolicy) -> bool:
    """Whether a cell's reading keeps its grid from being certified: a given's digit, or an
    empty cell's emptiness, read below the policy's threshold. A cell typed or corrected by a
    person (no confidence) is certain."""
    if confidence is None:
        return False
    if kind is CellKind.GIVEN:
        return confidence < policy.confident_reading
    return kind is CellKind.EMPTY and confidence < policy.confident_empty


def _reading_reasons(reading: BoardReading, policy: CertifyPolicy) -> list[ReviewReason]:
    unsure_givens, unsure_empty = [], []
    for cell in reading.cells:
        if cell.confidence is None or not unsure_reading(cell.kind, cell.confidence, policy):
            continue
        where = f"r{cell.row + 1}c{cell.col + 1}"
        if cell.kind is CellKind.GIVEN:
            unsure_givens.append(
                (cell.confidence, f"{where} read {cell.digit} ({cell.confidence:.3f})")
            )
        else:
            unsure_empty.append((cell.confidence, f"{where} ({cell.confidence:.3f})"))
    reasons = []
    as_print = [
        f"r{cell.row + 1}c{cell.col + 1} {cell.digit}"
        for cell in reading.cells
        if cell.kind is CellKind.GIVEN and cell.ink is InkKind.HANDWRITTEN
    ]
    if as_print:
        reasons.append(
            ReviewReason(
                ENTRIES_AS_PRINT,
                "cells read as handwritten, taken as print (the print alone has several "
                "solutions): " + _listed(as_print),
            )
        )
    if unsure_givens:
        cells = [text for _, text in sorted(unsure_givens)]
        reasons.append(
            ReviewReason(
                LOW_CONFIDENCE_GIVEN,
                f"digits read below confidence {policy.confident_reading}: " + _listed(cells),
            )
        )
    if unsure_empty:
        cells = [text for _, text in sorted(unsure_empty)]
        reasons.append(
            ReviewReason(
                LOW_CONFIDENCE_EMPTY,
                f"cells read as empty below confidence {policy.confident_empty}: " + _listed(cells),
            )
        )
    return reasons


def _verdict_reasons(solution: PuzzleSolution) -> list[ReviewReason]:
    result = solution.result
    if result.verdict in _VERDICT_REASONS:
        code, default = _VERDICT_REASONS[result.verdict]
        return [ReviewReason(code, result.message or default)]
    if result.verdict is not Verdict.SOLVED:
        return []  # not_sudoku: said above
    problems = (
        ["no solution given"]
        if result.solution is None
        else solution_problems(solution.puzzle, result.solution)
    )
    if problems:
        return [
            ReviewReason(SOLUTION_UNCHECKED, "the solution fails its check: " + _listed(problems))
        ]
    return []


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:_CELLS_NAMED])
    more = len(items) - _CELLS_NAMED
    return shown + (f" and {more} more" if more > 0 else "")
