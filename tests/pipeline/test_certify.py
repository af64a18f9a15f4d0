"""Certified or needs review (pipeline.certify), and a grid solved only by doubting a confident
reading reported as printed: unsolvable, with the repaired reading as a suggestion."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from sudoku_batch.jobs.steps import SolveOptions, solve_reading_step, solve_text_step
from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.certify import BoardFacts, CertifyPolicy, certify
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.reading import BoardReading, CellReading, InkKind
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.result import PuzzleSolution, SolveResult, Verdict
from sudoku_batch.synth.unique import unique_puzzle

POLICY = CertifyPolicy(confident_reading=0.99, confident_empty=0.9)
TIMEOUT = 30.0
NINE = GridShape(3, 3)


@pytest.fixture(scope="module")
def backend():
    return make_backend()


@pytest.fixture(scope="module")
def generated():
    return unique_puzzle(NINE, np.random.default_rng(27), givens=30)


def reading_of(puzzle: Puzzle, changes=None, given=0.999, empty=0.99) -> BoardReading:
    """Every given read at ``given``, every empty cell at ``empty``; ``changes``:
    {(row, col): CellReading} replacing a cell's reading."""
    changes = changes or {}
    cells = []
    for r, row in enumerate(puzzle.givens):
        for c, value in enumerate(row):
            if (r, c) in changes:
                cells.append(changes[(r, c)])
            elif value:
                cells.append(CellReading(r, c, CellKind.GIVEN, value, given))
            else:
                cells.append(CellReading(r, c, CellKind.EMPTY, confidence=empty))
    return BoardReading(puzzle.shape, tuple(cells))


def clashing_misread(puzzle: Puzzle, confidence: float) -> tuple[tuple[int, int], CellReading]:
    """A given misread as the digit of another given in its row (so the readings clash), at
    ``confidence``, its true digit the runner-up."""
    for r, row in enumerate(puzzle.givens):
        printed = [(c, v) for c, v in enumerate(row) if v]
        if len(printed) >= 2:
            (c, true), (_, other) = printed[:2]
            runner_up = ((true, min(0.4, 1.0 - confidence)),)
            return (r, c), CellReading(r, c, CellKind.GIVEN, other, confidence, runner_up)
    raise AssertionError("no row with two givens")


INTACT = BoardFacts()


def solved(reading, backend, facts=INTACT):
    return solve_reading_step(reading, SolveOptions(backend, TIMEOUT, policy=POLICY), None, facts)


def codes(solution: PuzzleSolution) -> list[str]:
    assert solution.certificate is not None
    return [reason.code for reason in solution.certificate.reasons]


def test_a_clean_confident_reading_with_one_solution_is_certified(generated, backend) -> None:
    solution = solved(reading_of(generated.puzzle), backend).solution
    assert solution.result.verdict is Verdict.SOLVED
    assert solution.certificate is not None and solution.certificate.certified
    assert codes(solution) == []


def test_a_given_read_below_the_threshold_is_not_certified(generated, backend) -> None:
    (r, c), _ = clashing_misread(generated.puzzle, 0.5)
    digit = generated.puzzle.givens[r][c]
    unsure = CellReading(r, c, CellKind.GIVEN, digit, 0.95)
    solution = solved(reading_of(generated.puzzle, {(r, c): unsure}), backend).solution
    assert solution.result.verdict is Verdict.SOLVED
    assert codes(solution) == ["low_confidence_given"]
    assert f"r{r + 1}c{c + 1} read {digit}" in solution.certificate.reasons[0].message


def test_a_cell_read_as_empty_below_the_threshold_is_not_certified(generated, backend) -> None:
    reading = reading_of(generated.puzzle, empty=0.6)
    assert codes(solved(reading, backend).solution) == ["low_confidence_empty"]


def test_an_unsure_reading_doubted_is_solved_but_not_certified(generated, backend) -> None:
    cell, misread = clashing_misread(generated.puzzle, 0.6)
    solution = solved(reading_of(generated.puzzle, {cell: misread}), backend).solution
    assert solution.result.verdict is Verdict.SOLVED
    assert solution.result.solution == generated.solution
    assert solution.suggestion is None
    assert codes(solution) == ["low_confidence_given", "doubted_reading"]


def test_a_confident_reading_doubted_makes_the_printed_puzzle_unsolvable(
    generated, backend
) -> None:
    cell, misread = clashing_misread(generated.puzzle, 0.999)
    reading = reading_of(generated.puzzle, {cell: misread}, given=1.0)
    result = solved(reading, backend)
    solution = result.solution
    assert solution.result.verdict is Verdict.UNSOLVABLE
    assert "confident readings clash" in solution.result.message
    assert solution.result.solution is None
    assert solution.puzzle == reading.puzzle(), "the printed puzzle, as read"
    assert solution.suggestion is not None
    assert solution.suggestion.solution == generated.solution
    assert solution.suggestion.givens == generated.puzzle.givens
    assert [(d.row, d.col) for d in solution.suggestion.doubts] == [cell]
    assert codes(solution) == ["doubted_reading", "unsolvable"]
    assert result.facts.rating is None, "an unsolvable printed puzzle is not rated"


def test_nothing_on_a_damaged_page_is_certified(generated, backend) -> None:
    damaged = BoardFacts(damaged="truncated JPEG")
    reading = reading_of(generated.puzzle)
    solution = solved(reading, backend, damaged).solution
    assert not solution.certificate.certified
    assert "damaged_page" in codes(solution)
    # As the reader marks it: another grid, for it may be a fragment.
    other = replace(reading, other_reason="not solved, as it may be a fragment")
    solution = solved(other, backend, damaged).solution
    assert solution.result.verdict is Verdict.NOT_SUDOKU
    assert codes(solution) == ["damaged_page", "not_sudoku"]


def test_an_assumed_box_shape_is_sure_only_when_the_size_has_one(backend) -> None:
    six = unique_puzzle(GridShape(2, 3), np.random.default_rng(6), givens=14)
    unseen = BoardFacts(box_measured=False)
    assert codes(solved(reading_of(six.puzzle), backend, unseen).solution) == ["lattice_uncertain"]
    nine = unique_puzzle(NINE, np.random.default_rng(9), givens=30)
    assert solved(reading_of(nine.puzzle), backend, unseen).solution.certificate.certified


def test_several_solutions_are_not_certified(generated, backend) -> None:
    rows = [list(row) for row in generated.puzzle.givens]
    rows[0] = [0] * 9
    rows[1] = [0] * 9
    puzzle = Puzzle.from_rows(rows, NINE)
    solution = solved(reading_of(puzzle), backend).solution
    assert solution.result.verdict is Verdict.MULTIPLE_SOLUTIONS
    assert codes(solution) == ["not_unique"]


def test_a_solution_that_fails_the_independent_check_is_not_certified(generated) -> None:
    wrong = [list(row) for row in generated.solution]
    wrong[0][0], wrong[0][1] = wrong[0][1], wrong[0][0]
    grid = tuple(tuple(row) for row in wrong)
    solution = PuzzleSolution(generated.puzzle, SolveResult(Verdict.SOLVED, grid))
    certificate = certify(reading_of(generated.puzzle), solution, BoardFacts(), POLICY)
    assert [reason.code for reason in certificate.reasons] == ["solution_unchecked"]


def test_typed_givens_are_certain(generated, backend) -> None:
    solution = solve_text_step(generated.puzzle, SolveOptions(backend, TIMEOUT)).solution
    assert solution.certificate.certified


def test_regions_read_in_doubt_are_not_certified(generated, backend) -> None:
    facts = BoardFacts()
    doubtful = replace(reading_of(generated.puzzle), regions_certainty=0.3)
    solution = solved(doubtful, backend, facts).solution
    assert codes(solution) == ["regions_uncertain"]
    assert "certainty 0.30" in solution.certificate.reasons[0].message
    sure = replace(doubtful, regions_certainty=0.8)
    assert solved(sure, backend, facts).solution.certificate.certified
    typed = replace(doubtful, regions_certainty=None)  # regions given, not read from an image
    assert solved(typed, backend, facts).solution.certificate.certified


def test_cells_judged_handwritten_that_the_print_needs_are_taken_as_print(backend) -> None:
    """A minimal puzzle needs every given: one of them judged a handwritten entry (a printed
    digit a warp stretched) leaves several solutions, so it is taken as print again, solved,
    and not certified, with the reason; on a puzzle whose print alone is unique, an entry
    stays an entry and is checked."""
    solving = SolveOptions(backend, TIMEOUT, policy=POLICY)
    minimal = unique_puzzle(NINE, np.random.default_rng(5), givens=0).puzzle  # dug to the end
    (r, c), digit = next(
        ((r, c), v) for r, row in enumerate(minimal.givens) for c, v in enumerate(row) if v
    )
    entry = CellReading(r, c, CellKind.EMPTY, digit, 0.999, ink=InkKind.HANDWRITTEN)
    solved = solve_reading_step(reading_of(minimal, {(r, c): entry}), solving, None, BoardFacts())
    assert solved.solution.result.verdict is Verdict.SOLVED
    certificate = solved.solution.certificate
    assert not certificate.certified
    assert [reason.code for reason in certificate.reasons] == ["entries_as_print"]

    roomy = unique_puzzle(NINE, np.random.default_rng(27), givens=40)
    (r, c) = next(
        (r, c) for r, row in enumerate(roomy.puzzle.givens) for c, v in enumerate(row) if v == 0
    )
    entry = CellReading(r, c, CellKind.EMPTY, roomy.solution[r][c], 0.999, ink=InkKind.HANDWRITTEN)
    reading = reading_of(roomy.puzzle, {(r, c): entry})
    solved = solve_reading_step(reading, solving, None, BoardFacts())
    assert solved.solution.result.verdict is Verdict.SOLVED
    assert solved.solution.certificate.certified
    assert [check.ok for check in solved.solution.entries_check] == [True]
