"""The book check's glue without a run: roles, the rater's time budget, and the batch
findings (answer keys paired and checked, copies found) from plain entries."""

from __future__ import annotations

import numpy as np

from sudoku_batch.pipeline.book.bounded_rating import rate_within
from sudoku_batch.pipeline.book.facts import Role, puzzle_facts, role_of
from sudoku_batch.pipeline.book.findings import GridEntry, book_findings
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.solve.result import SolveResult, Verdict
from sudoku_batch.synth.answer_pages import answer_grid, disguise
from sudoku_batch.synth.unique import unique_puzzle

NINE = GridShape(3, 3)
# A hard 9x9 (SE 9+ on published lists): the chain tiers take far longer than a millisecond.
HARD = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"


def hard_puzzle() -> Puzzle:
    return Puzzle.from_rows([[int(ch) for ch in HARD[r * 9 : r * 9 + 9]] for r in range(9)])


def test_a_fully_printed_grid_is_an_answer_and_is_not_rated() -> None:
    generated = unique_puzzle(NINE, np.random.default_rng(1), givens=30)
    answer = answer_grid(generated).puzzle
    assert role_of(generated.puzzle) is Role.PUZZLE and role_of(answer) is Role.ANSWER
    solved = SolveResult(Verdict.SOLVED, solution=generated.solution)
    facts = puzzle_facts(answer, answer, solved)
    assert facts.rating is None and facts.canonical is None and facts.rating_reason is None


def test_the_rating_past_its_budget_is_null_with_the_reason() -> None:
    rating = rate_within(hard_puzzle(), None, 0.01)
    assert rating.score is None and rating.level == "unrated"
    assert "budget of 0.01 s" in rating.reason


def test_a_puzzle_without_a_unique_solution_is_not_rated() -> None:
    puzzle = hard_puzzle()
    facts = puzzle_facts(puzzle, puzzle, SolveResult(Verdict.MULTIPLE_SOLUTIONS))
    assert facts.rating is None and "no unique solution" in facts.rating_reason
    assert facts.canonical  # copies are found whatever the verdict


def _entry(id_, page, index, generated, role="puzzle") -> GridEntry:
    from sudoku_batch.pipeline.solve.canonical import canonical_form

    givens = generated.puzzle.givens
    return GridEntry(
        id=id_, source="book.pdf", page=page, index=index, role=role, size=9, givens=givens,
        solution=generated.solution if role == "puzzle" else None,
        canonical=canonical_form(generated.puzzle).text if role == "puzzle" else None,
        level="easy" if role == "puzzle" else None,
    )  # fmt: skip


def test_findings_pair_answers_flag_the_misprint_and_find_the_copy() -> None:
    rng = np.random.default_rng(7)
    a, b = unique_puzzle(NINE, rng, givens=30), unique_puzzle(NINE, rng, givens=30)
    empty = next((r, c) for r in range(9) for c in range(9) if b.puzzle.givens[r][c] == 0)
    entries = [
        _entry(1, 1, 0, a),
        _entry(2, 1, 1, b),
        _entry(3, 2, 0, disguise(a, rng)),
        _entry(4, 3, 0, answer_grid(b, empty), "answer"),  # printed before a's: order is free
        _entry(5, 3, 1, answer_grid(a), "answer"),
    ]
    findings = book_findings(entries)
    assert findings.answer_key == {
        1: {"source": "book.pdf", "page": 3, "index": 1, "matches": True, "wrong_cells": []},
        2: {
            "source": "book.pdf",
            "page": 3,
            "index": 0,
            "matches": False,
            "wrong_cells": [list(empty)],
        },
    }
    assert findings.duplicate_of == {3: {"source": "book.pdf", "page": 1, "index": 0}}
    assert findings.unmatched_answers == [] and findings.levels == {"easy": 3}


def _missing(puzzle: Puzzle, cells) -> Puzzle:
    rows = [list(row) for row in puzzle.givens]
    for r, c in cells:
        rows[r][c] = 0
    return Puzzle.from_rows(rows)


def test_a_grid_captioned_as_a_solution_is_an_answer_though_its_reading_missed_digits() -> None:
    generated = unique_puzzle(NINE, np.random.default_rng(2), givens=30)
    read = _missing(answer_grid(generated).puzzle, [(0, 0), (4, 5), (8, 8)])
    assert role_of(read) is Role.PUZZLE  # the fully-printed test alone is inconclusive
    assert role_of(read, "answer") is Role.ANSWER
    solved = SolveResult(Verdict.SOLVED, solution=generated.solution)
    facts = puzzle_facts(read, read, solved, printed_role="answer")
    assert facts.role is Role.ANSWER and facts.rating is None and facts.canonical is None


def test_a_solution_caption_does_not_make_a_puzzle_an_answer() -> None:
    # "Solution on page 40" printed under a puzzle: the grid is far from filled.
    generated = unique_puzzle(NINE, np.random.default_rng(3), givens=30)
    assert role_of(generated.puzzle, "answer") is Role.PUZZLE


def test_a_puzzle_caption_does_not_unmake_a_fully_printed_answer() -> None:
    generated = unique_puzzle(NINE, np.random.default_rng(4), givens=30)
    answer = answer_grid(generated).puzzle
    assert role_of(answer, "puzzle") is Role.ANSWER
    assert role_of(generated.puzzle, "puzzle") is Role.PUZZLE


def test_an_answer_page_read_with_a_missed_digit_still_pairs_and_names_that_cell() -> None:
    rng = np.random.default_rng(9)
    a, b = unique_puzzle(NINE, rng, givens=30), unique_puzzle(NINE, rng, givens=30)
    # The missed cell is one of b's givens: the answer's empty cell must not stop the pairing.
    missed = next((r, c) for r in range(9) for c in range(9) if b.puzzle.givens[r][c])
    read_b = _missing(answer_grid(b).puzzle, [missed])
    assert role_of(read_b, "answer") is Role.ANSWER
    answer_b = GridEntry(
        id=4, source="book.pdf", page=3, index=0, role=str(role_of(read_b, "answer")), size=9,
        givens=read_b.givens, solution=None, canonical=None, level=None,
    )  # fmt: skip
    entries = [_entry(1, 1, 0, a), _entry(2, 1, 1, b), answer_b]
    entries.append(_entry(5, 3, 1, answer_grid(a), "answer"))
    findings = book_findings(entries)
    assert findings.answer_key[2]["wrong_cells"] == [list(missed)]
    assert findings.answer_key[1]["matches"] is True
    assert findings.unmatched_answers == [] and findings.ambiguous_answers == []
