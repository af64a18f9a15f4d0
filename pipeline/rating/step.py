"""One deduction of the human-style solver: the technique, its difficulty and what it changes."""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_batch.pipeline.rating.candidates import Board


@dataclass(frozen=True)
class Step:
    technique: str
    difficulty: float  # on the Sudoku Explainer scale
    placements: tuple[tuple[int, int], ...] = ()  # (cell, digit)
    eliminations: tuple[tuple[int, int], ...] = ()  # (cell, digit)


def apply_step(board: Board, step: Step) -> bool:
    """Apply ``step``; False when it changed nothing (the rater then stops rather than loop).
    Raises ``Contradiction`` when the step clashes with the board."""
    changed = False
    for cell, digit in step.placements:
        if board.values[cell] != digit:
            board.place(cell, digit)
            changed = True
    for cell, digit in step.eliminations:
        changed |= board.eliminate(cell, digit)
    return changed
