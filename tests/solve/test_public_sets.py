"""A few puzzles from the public sets in shared data (skipped when it is absent)."""

from __future__ import annotations

import os

import pytest

from sudoku_batch.pipeline.ingest.textpuzzle import is_puzzle_line, parse_puzzle_line
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from tests.solve.test_kissat import kissat_processes_under

pytestmark = pytest.mark.shared_data


def first_puzzles(shared_data, name, count):
    with (shared_data / "puzzles" / name).open(encoding="utf-8") as lines:
        puzzle_lines = [line for line in lines if is_puzzle_line(line)]
    return [parse_puzzle_line(line).puzzle for line in puzzle_lines[:count]]


def test_a_hard_25x25_past_a_tiny_timeout_is_a_timeout_and_leaves_no_kissat(shared_data, backend):
    (hard,) = first_puzzles(shared_data, "gecode_25x25.txt", 1)  # seconds for any SAT solver
    result = solve_puzzle(hard, backend, timeout=0.2)
    assert result.verdict is Verdict.TIMEOUT
    assert kissat_processes_under(os.getpid()) == []


def test_the_liamjdavis_25x25_set_reports_its_repeated_givens(shared_data, cadical):
    puzzles = first_puzzles(shared_data, "liamjdavis_25x25.txt", 100)
    verdicts = [solve_puzzle(p, cadical, 30).verdict for p in puzzles]
    bad = sum(v in (Verdict.INVALID, Verdict.UNSOLVABLE) for v in verdicts)
    assert bad == 58 and verdicts.count(Verdict.SOLVED) == 42  # as the set's README says


def test_the_serg_set_has_puzzles_with_several_solutions(shared_data, kissat, cadical):
    for puzzle in first_puzzles(shared_data, "puzzles7_serg_benchmark", 5):
        results = [solve_puzzle(puzzle, b, 30) for b in (kissat, cadical)]
        assert {r.verdict for r in results} == {Verdict.MULTIPLE_SOLUTIONS}
        assert all(r.solution != r.second_solution for r in results)
