"""Pairing printed answers with their puzzles and checking them cell by cell.

An answer is paired with a puzzle by printed number when both carry one and the number, with
the label printed beside it ("Easy 12" and "Hard 12" are two puzzles), names exactly one puzzle
and one answer, unless the answer contradicts that puzzle's givens while it fits another's (a
number misread, or printed against the wrong grid); otherwise by consistency: the answer must
agree with every given of exactly one still unpaired puzzle. An answer that fits several
puzzles is reported as ambiguous rather than guessed (no pairing, so never a mismatch), and one
that fits none as unmatched. A paired answer is compared with the puzzle's
unique solution when there is one, else only with its givens (the wrong cells then are the
givens the answer contradicts).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sudoku_batch.pipeline.grid import Grid


@dataclass(frozen=True)
class KeyPuzzle:
    id: str
    number: int | None  # the puzzle number printed near the grid, when read
    givens: Grid  # 0 = empty
    solution: Grid | None  # the unique solution, None when there is none
    label: str | None = None  # the difficulty printed with the number, when read


@dataclass(frozen=True)
class KeyAnswer:
    id: str
    number: int | None
    grid: Grid  # the printed full grid
    label: str | None = None


@dataclass(frozen=True)
class AnswerCheck:
    puzzle_id: str
    answer_id: str
    paired_by: str  # "number" or "givens"
    matches: bool
    wrong_cells: tuple[tuple[int, int], ...]  # (row, col), 0-based


@dataclass(frozen=True)
class AnswerKeyReport:
    checks: tuple[AnswerCheck, ...]
    unmatched_answers: tuple[str, ...]  # answer ids that fit no puzzle
    ambiguous_answers: tuple[tuple[str, tuple[str, ...]], ...]  # answer id, puzzle ids it fits


def agrees_with_givens(givens: Grid, grid: Grid) -> bool:
    """An answer's empty cell (a digit its reading missed) contradicts no given; it is still a
    wrong cell when the pair is checked."""
    return all(
        g in (0, None) or v in (0, None) or g == v
        for grow, vrow in zip(givens, grid, strict=True)
        for g, v in zip(grow, vrow, strict=True)
    )


def wrong_cells(puzzle: KeyPuzzle, grid: Grid) -> tuple[tuple[int, int], ...]:
    reference = puzzle.solution or puzzle.givens
    return tuple(
        (r, c)
        for r, row in enumerate(reference)
        for c, want in enumerate(row)
        if want and grid[r][c] != want
    )


def check_answer_key(puzzles: list[KeyPuzzle], answers: list[KeyAnswer]) -> AnswerKeyReport:
    puzzle_numbers = Counter((p.label, p.number) for p in puzzles if p.number is not None)
    answer_numbers = Counter((a.label, a.number) for a in answers if a.number is not None)
    by_number = {(p.label, p.number): p for p in puzzles if p.number is not None}
    paired: dict[str, tuple[KeyPuzzle, str]] = {}  # answer id -> (puzzle, how)
    taken: set[str] = set()
    for answer in answers:
        key = (answer.label, answer.number)
        if answer.number is None or puzzle_numbers[key] != 1 or answer_numbers[key] != 1:
            continue  # no number, or one printed twice: left to the givens
        puzzle = by_number[key]
        if not agrees_with_givens(puzzle.givens, answer.grid) and any(
            agrees_with_givens(other.givens, answer.grid) for other in puzzles if other != puzzle
        ):
            continue  # the number read names a puzzle the givens rule out: the givens decide
        paired[answer.id] = (puzzle, "number")
        taken.add(puzzle.id)

    unmatched, ambiguous = [], []
    for answer in answers:
        if answer.id in paired:
            continue
        fits = [
            p for p in puzzles if p.id not in taken and agrees_with_givens(p.givens, answer.grid)
        ]
        if len(fits) == 1:
            paired[answer.id] = (fits[0], "givens")
            taken.add(fits[0].id)
        elif fits:
            ambiguous.append((answer.id, tuple(p.id for p in fits)))
        else:
            unmatched.append(answer.id)

    checks = []
    for answer in answers:
        if answer.id not in paired:
            continue
        puzzle, how = paired[answer.id]
        wrong = wrong_cells(puzzle, answer.grid)
        checks.append(AnswerCheck(puzzle.id, answer.id, how, not wrong, wrong))
    return AnswerKeyReport(tuple(checks), tuple(unmatched), tuple(ambiguous))
