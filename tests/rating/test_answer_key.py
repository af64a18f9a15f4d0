"""Answer-key pairing and checking on a synthetic book."""

from __future__ import annotations

import random

import numpy as np

from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.solve.answer_key import KeyAnswer, KeyPuzzle, check_answer_key
from sudoku_batch.synth.puzzles import random_solution


def _book(count: int, seed: int = 7):
    rng = random.Random(seed)
    puzzles, answers = [], []
    for i in range(count):
        solution = random_solution(GridShape(3, 3), np.random.default_rng(seed + i)).tolist()
        givens = [[v if rng.random() < 0.4 else 0 for v in row] for row in solution]
        grid = tuple(map(tuple, solution))
        puzzles.append(KeyPuzzle(f"p{i}", i + 1, tuple(map(tuple, givens)), grid))
        answers.append(KeyAnswer(f"a{i}", i + 1, grid))
    return puzzles, answers


def _with_cell(grid, row, col, value):
    rows = [list(r) for r in grid]
    rows[row][col] = value
    return tuple(map(tuple, rows))


def test_one_wrong_answer_flags_exactly_that_puzzle_and_cell():
    puzzles, answers = _book(12)
    bad = answers[5]
    wrong_digit = bad.grid[4][6] % 9 + 1
    answers[5] = KeyAnswer(bad.id, bad.number, _with_cell(bad.grid, 4, 6, wrong_digit))
    report = check_answer_key(puzzles, answers)
    assert len(report.checks) == 12
    failures = [c for c in report.checks if not c.matches]
    assert [(c.puzzle_id, c.answer_id, c.wrong_cells) for c in failures] == [
        ("p5", "a5", ((4, 6),))
    ]
    assert all(c.paired_by == "number" for c in report.checks)


def test_answers_without_numbers_pair_by_givens():
    puzzles, answers = _book(6)
    unnumbered = [KeyAnswer(a.id, None, a.grid) for a in reversed(answers)]
    report = check_answer_key(puzzles, unnumbered)
    assert {(c.puzzle_id, c.answer_id) for c in report.checks} == {
        (f"p{i}", f"a{i}") for i in range(6)
    }
    assert all(c.paired_by == "givens" and c.matches for c in report.checks)


def test_an_answer_fitting_two_puzzles_is_ambiguous_not_guessed():
    puzzles, answers = _book(2)
    empty = tuple(tuple(0 for _ in range(9)) for _ in range(9))
    twins = [
        KeyPuzzle("x", None, empty, None),
        KeyPuzzle("y", None, empty, None),
    ]
    report = check_answer_key(twins, [KeyAnswer("a", None, answers[0].grid)])
    assert report.checks == ()
    assert report.ambiguous_answers == (("a", ("x", "y")),)


def test_an_answer_fitting_no_puzzle_is_unmatched():
    puzzles, answers = _book(2)
    other = _book(1, seed=99)[1][0]
    report = check_answer_key(puzzles[:1], [KeyAnswer("stray", None, other.grid)])
    assert report.unmatched_answers == ("stray",)


def test_numbers_restarting_per_section_pair_by_label_and_number():
    puzzles, answers = _book(4)
    # "Easy 1, Easy 2, Hard 1, Hard 2": each number twice, told apart by its label.
    labels = ["Easy", "Easy", "Hard", "Hard"]
    numbered = [
        KeyPuzzle(p.id, i % 2 + 1, p.givens, p.solution, labels[i]) for i, p in enumerate(puzzles)
    ]
    keyed = [KeyAnswer(a.id, i % 2 + 1, a.grid, labels[i]) for i, a in enumerate(answers)]
    report = check_answer_key(numbered, list(reversed(keyed)))
    assert {(c.puzzle_id, c.answer_id, c.paired_by) for c in report.checks} == {
        (f"p{i}", f"a{i}", "number") for i in range(4)
    }
    # Without the labels the numbers are ambiguous: the givens decide instead of a guess.
    unlabelled = [KeyAnswer(a.id, a.number, a.grid) for a in keyed]
    plain = [KeyPuzzle(p.id, p.number, p.givens, p.solution) for p in numbered]
    report = check_answer_key(plain, unlabelled)
    assert {(c.puzzle_id, c.answer_id) for c in report.checks} == {
        (f"p{i}", f"a{i}") for i in range(4)
    }
    assert all(c.paired_by == "givens" for c in report.checks)


def test_an_answer_with_a_digit_left_unread_still_pairs_by_givens_and_names_that_cell():
    # An answer page read with one digit missed (the grid is an answer by its "Solution"
    # caption): the empty cell contradicts no given, so it pairs, and is the one wrong cell.
    puzzles, answers = _book(6)
    missed = next((r, c) for r in range(9) for c in range(9) if puzzles[2].givens[r][c])
    unnumbered = [KeyAnswer(a.id, None, a.grid) for a in answers]
    unnumbered[2] = KeyAnswer("a2", None, _with_cell(answers[2].grid, *missed, 0))
    report = check_answer_key(puzzles, unnumbered)
    assert report.unmatched_answers == () and report.ambiguous_answers == ()
    failures = [(c.puzzle_id, c.answer_id, c.wrong_cells) for c in report.checks if not c.matches]
    assert failures == [("p2", "a2", (missed,))]


def test_a_number_the_givens_rule_out_gives_way_to_the_givens_not_a_mismatch():
    puzzles, answers = _book(3)
    # The first two answers carry each other's numbers (misread, or printed so).
    swapped = [
        KeyAnswer("a0", 2, answers[0].grid),
        KeyAnswer("a1", 1, answers[1].grid),
        answers[2],
    ]
    report = check_answer_key(puzzles, swapped)
    assert {(c.puzzle_id, c.answer_id, c.paired_by) for c in report.checks} == {
        ("p0", "a0", "givens"),
        ("p1", "a1", "givens"),
        ("p2", "a2", "number"),
    }
    assert all(c.matches for c in report.checks)
