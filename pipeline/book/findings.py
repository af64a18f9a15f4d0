"""The batch-level book check: printed answers paired with their puzzles and checked, copies
(exact or disguised) of earlier puzzles, and how many puzzles each level holds.

Pure: entries in, findings out, so the results, the API and the report compute it the same way
on read (a batch's findings change whenever one of its grids is redone, so none is stored).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from sudoku_batch.pipeline.grid import Grid
from sudoku_batch.pipeline.solve.answer_key import KeyAnswer, KeyPuzzle, check_answer_key

PUZZLE, ANSWER = "puzzle", "answer"


@dataclass(frozen=True)
class GridEntry:
    """One grid of the batch as the book check sees it (``id``: the puzzle row's id)."""

    id: int
    source: str
    page: int
    index: int
    role: str | None  # puzzle, answer, or None when not solved yet / failed
    size: int | None
    givens: Grid | None
    solution: Grid | None  # the unique solution, when there is one
    canonical: str | None
    level: str | None
    printed_number: int | None = None
    printed_label: str | None = None

    def place(self) -> dict:
        return {"source": self.source, "page": self.page, "index": self.index}


@dataclass
class BookFindings:
    answer_key: dict[int, dict] = field(default_factory=dict)  # puzzle id -> check
    answer_for: dict[int, int] = field(default_factory=dict)  # answer id -> puzzle id
    duplicate_of: dict[int, dict] = field(default_factory=dict)  # puzzle id -> first copy
    unmatched_answers: list[int] = field(default_factory=list)
    ambiguous_answers: list[int] = field(default_factory=list)
    levels: Counter = field(default_factory=Counter)


def book_findings(entries: list[GridEntry]) -> BookFindings:
    """``entries`` in the results' order: the first of a set of copies is the original."""
    findings = BookFindings()
    _find_duplicates(entries, findings)
    _check_answers(entries, findings)
    findings.levels = Counter(e.level for e in entries if e.role == PUZZLE and e.level)
    return findings


def _find_duplicates(entries: list[GridEntry], findings: BookFindings) -> None:
    first: dict[str, GridEntry] = {}
    for entry in entries:
        if entry.role != PUZZLE or entry.canonical is None:
            continue
        key = f"{entry.size}:{entry.canonical}"
        if key in first:
            findings.duplicate_of[entry.id] = first[key].place()
        else:
            first[key] = entry


def _check_answers(entries: list[GridEntry], findings: BookFindings) -> None:
    by_id = {e.id: e for e in entries}
    for size in {e.size for e in entries if e.role == ANSWER}:
        puzzles = [e for e in entries if e.role == PUZZLE and e.size == size and e.givens]
        answers = [e for e in entries if e.role == ANSWER and e.size == size and e.givens]
        # An answer equal to exactly one puzzle's solution is that puzzle's, and right: paired
        # here by lookup, since pairing by givens compares every answer with every puzzle.
        solved_by: dict[Grid, list[GridEntry]] = defaultdict(list)
        for puzzle in puzzles:
            if puzzle.solution is not None:
                solved_by[puzzle.solution].append(puzzle)
        rest, taken = [], set()
        for answer in answers:
            fits = solved_by.get(answer.givens, [])
            if answer.printed_number is None and len(fits) == 1 and fits[0].id not in taken:
                _pair(findings, fits[0], answer, ())
                taken.add(fits[0].id)
            else:
                rest.append(answer)
        report = check_answer_key(
            [_key_puzzle(p) for p in puzzles if p.id not in taken],
            [KeyAnswer(str(a.id), a.printed_number, a.givens, a.printed_label) for a in rest],
        )
        for check in report.checks:
            puzzle, answer = by_id[int(check.puzzle_id)], by_id[int(check.answer_id)]
            _pair(findings, puzzle, answer, check.wrong_cells)
        findings.unmatched_answers += [int(a) for a in report.unmatched_answers]
        findings.ambiguous_answers += [int(a) for a, _ in report.ambiguous_answers]


def _key_puzzle(entry: GridEntry) -> KeyPuzzle:
    return KeyPuzzle(
        str(entry.id), entry.printed_number, entry.givens, entry.solution, entry.printed_label
    )


def _pair(findings: BookFindings, puzzle: GridEntry, answer: GridEntry, wrong) -> None:
    findings.answer_key[puzzle.id] = {
        **answer.place(),
        "matches": not wrong,
        "wrong_cells": [list(cell) for cell in wrong],
    }
    findings.answer_for[answer.id] = puzzle.id
