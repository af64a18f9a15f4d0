"""A grid solved only by doubting a reading the recogniser was sure of is no solved puzzle.

When the readings clash, ``pipeline.solve.reconcile`` doubts the least certain ones until the
puzzle has one solution. If every doubted reading was one the recogniser itself was unsure of,
the printed puzzle was most likely misread, and its solution stands (though it needs review).
If a doubted reading was a confident one, the print itself most likely holds the clash (a
misprint): the printed puzzle, as read, has no solution, and the repaired reading with its
solution is only a suggestion for whoever fixes the misprint.
"""

from __future__ import annotations

from sudoku_batch.pipeline.grid import Puzzle
from sudoku_batch.pipeline.solve.result import PuzzleSolution, SolveResult, Suggestion, Verdict


def confident_doubts(solution: PuzzleSolution, confident: float) -> list[str]:
    """The doubted readings at ``confident`` or above, as "r2c5 read 7 (0.998)"."""
    return [
        f"r{d.row + 1}c{d.col + 1} read {d.read} ({d.confidence:.3f})"
        for d in solution.doubts
        if d.confidence >= confident
    ]


def printed_verdict(printed: Puzzle, solution: PuzzleSolution, confident: float) -> PuzzleSolution:
    """The verdict on the printed puzzle: ``solution`` itself unless it was reached by doubting
    a reading at ``confident`` or above; then the printed puzzle (``printed``: as read) is
    unsolvable and ``solution``'s repaired givens, solution and doubts are its suggestion."""
    sure = confident_doubts(solution, confident)
    if not sure or solution.result.verdict is not Verdict.SOLVED:
        return solution
    assert solution.result.solution is not None
    message = (
        "the printed puzzle has no solution as read: its confident readings clash ("
        + ", ".join(sure)
        + "); the suggestion holds a repaired reading and its solution"
    )
    result = SolveResult(
        Verdict.UNSOLVABLE,
        message=message,
        seconds=solution.result.seconds,
        backend=solution.result.backend,
    )
    suggestion = Suggestion(solution.puzzle.givens, solution.result.solution, solution.doubts)
    return PuzzleSolution(printed, result, solution.doubts, suggestion)
