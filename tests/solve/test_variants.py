"""Solving, proving unique and checking jigsaw and diagonal puzzles, read from text; the solver's
doubts on a jigsaw reading."""

from __future__ import annotations

import dataclasses

import pytest

from sudoku_batch.pipeline.board import CellKind
from sudoku_batch.pipeline.errors import InvalidRegions, MalformedPuzzleText
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.ingest.textpuzzle import (
    format_grid,
    format_puzzle,
    parse_line,
    parse_puzzle_line,
)
from sudoku_batch.pipeline.reading import BoardReading, CellReading
from sudoku_batch.pipeline.solve.check import solution_problems
from sudoku_batch.pipeline.solve.encode import find_clashes
from sudoku_batch.pipeline.solve.propagate import propagate, units_of
from sudoku_batch.pipeline.solve.reconcile import solve_reading
from sudoku_batch.pipeline.solve.result import Verdict
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from tests.solve.variants import (
    DIAGONAL,
    DIAGONAL_SOLVED,
    JIGSAW,
    JIGSAW_REGIONS,
    JIGSAW_SOLVED,
    VARIANTS,
    grid_of,
    puzzle_of,
)

TIMEOUT = 30.0


@pytest.mark.parametrize(("line", "solved"), VARIANTS)
def test_each_variant_is_solved_and_proved_unique(line, solved, backend):
    puzzle = puzzle_of(line)
    result = solve_puzzle(puzzle, backend, TIMEOUT)
    assert result.verdict is Verdict.SOLVED, result.message
    assert format_grid(result.solution) == solved
    assert solution_problems(puzzle, result.solution) == []


@pytest.mark.parametrize(("line", "solved"), VARIANTS)
def test_one_given_fewer_has_several_solutions(line, solved, cadical):
    """The puzzles are minimal: so the uniqueness verdict rests on every variant unit."""
    puzzle = puzzle_of(line)
    rows = [list(row) for row in puzzle.givens]
    r, c = next((r, c) for r in range(puzzle.size) for c in range(puzzle.size) if rows[r][c])
    rows[r][c] = 0
    fewer = dataclasses.replace(puzzle, givens=tuple(map(tuple, rows)))
    assert solve_puzzle(fewer, cadical, TIMEOUT).verdict is Verdict.MULTIPLE_SOLUTIONS


def test_the_variant_units_decide_the_answer(cadical):
    """The same givens without the regions, or without the diagonals, are another puzzle."""
    jigsaw = puzzle_of(JIGSAW)
    classic = dataclasses.replace(jigsaw, shape=GridShape(3, 3))
    assert solve_puzzle(classic, cadical, TIMEOUT).solution != grid_of(JIGSAW_SOLVED)
    diagonal = puzzle_of(DIAGONAL)
    plain = dataclasses.replace(diagonal, shape=GridShape(3, 3))
    assert solve_puzzle(plain, cadical, TIMEOUT).verdict is Verdict.MULTIPLE_SOLUTIONS


def test_the_check_holds_each_grid_to_its_own_units():
    jigsaw = puzzle_of(JIGSAW)
    assert solution_problems(jigsaw, grid_of(JIGSAW_SOLVED)) == []
    # The diagonal grid's solution keeps rows, columns and boxes, not the jigsaw's regions.
    empty_jigsaw = dataclasses.replace(jigsaw, givens=((0,) * 9,) * 9)
    problems = solution_problems(empty_jigsaw, grid_of(DIAGONAL_SOLVED))
    assert problems and all(p.startswith("region") for p in problems)
    # The jigsaw's solution on a diagonal grid: its diagonals repeat digits (its boxes too).
    problems = solution_problems(puzzle_of("." * 81 + "/X"), grid_of(JIGSAW_SOLVED))
    assert any(p.startswith("diagonal") for p in problems)


def test_clashes_and_propagation_use_the_variant_units():
    line = "1" + "." * 79 + "1/X"  # both ends of the main diagonal hold 1
    assert find_clashes(puzzle_of(line)) == ["r1c1 and r9c9 both hold 1 in main diagonal"]
    assert find_clashes(puzzle_of("1" + "." * 79 + "1")) == []
    jigsaw = puzzle_of(JIGSAW)
    units = units_of(jigsaw)
    assert units.names[18:21] == ("region 1", "region 2", "region 3")
    found = propagate(jigsaw, units)
    assert not found.contradiction
    for cell in range(81):  # every digit left is the solution's or a rival one
        if found.solved >> cell & 1:
            assert found.digit_at(cell) == int(JIGSAW_SOLVED[cell])


def test_text_syntaxes_for_regions_and_diagonals():
    grid, regions = JIGSAW.split("/")
    slashed = parse_puzzle_line(JIGSAW).puzzle
    assert parse_puzzle_line(grid + regions + " tag").puzzle == slashed  # the plain suffix
    letters = regions.translate(str.maketrans("012345678", "ABCDEFGHI"))
    assert parse_puzzle_line(f"{grid}/{letters}").puzzle == slashed
    assert slashed.shape.variant == "jigsaw"
    assert parse_puzzle_line(DIAGONAL).puzzle.shape == GridShape(3, 3, diagonals=True)
    both = parse_puzzle_line(f"{grid}/{regions}/x").puzzle.shape
    assert both.variant == "jigsaw+diagonal"
    for line, _ in VARIANTS:
        assert format_puzzle(puzzle_of(line)) == line


def test_bad_region_text_is_refused_with_its_reason():
    grid = JIGSAW.split("/")[0]
    with pytest.raises(MalformedPuzzleText, match="needs 81 region symbols, not 80"):
        parse_puzzle_line(f"{grid}/{JIGSAW_REGIONS[:80]}")
    with pytest.raises(MalformedPuzzleText, match="expected GRID"):
        parse_puzzle_line(f"{grid}/{JIGSAW_REGIONS}/{JIGSAW_REGIONS}")
    swapped = JIGSAW_REGIONS[:1] + "4" + JIGSAW_REGIONS[2:]  # region 0 loses a cell to 4
    line = parse_line(3, f"{grid}/{swapped}")
    assert isinstance(line.error, InvalidRegions) and "cells, not 9" in line.error.message


def test_a_misread_jigsaw_given_is_doubted_as_on_a_classic_grid(cadical):
    """reconcile works unchanged: the reading carries the jigsaw shape to the solver."""
    puzzle = puzzle_of(JIGSAW)
    solution = grid_of(JIGSAW_SOLVED)
    regions = puzzle.shape.geometry.regions
    given = [(r, c) for r in range(9) for c in range(9) if puzzle.givens[r][c]]
    # A misreading that repeats another given of its region (not of its row or column).
    (r0, c0), wrong = next(
        ((a, solution[r][c]))
        for a in given
        for r, c in given
        if regions[r][c] == regions[a[0]][a[1]] and r != a[0] and c != a[1]
    )
    cells = []
    for r in range(9):
        for c in range(9):
            if (r, c) == (r0, c0):
                alternatives = ((solution[r][c], 0.3),)
                cells.append(CellReading(r, c, CellKind.GIVEN, wrong, 0.6, alternatives))
            elif puzzle.givens[r][c]:
                cells.append(CellReading(r, c, CellKind.GIVEN, solution[r][c], 0.99))
            else:
                cells.append(CellReading(r, c, CellKind.EMPTY))
    reading = BoardReading(puzzle.shape, tuple(cells))
    solved = solve_reading(reading, cadical, TIMEOUT)
    assert solved.result.verdict is Verdict.SOLVED and solved.result.solution == solution
    assert [(d.row, d.col, d.replaced_by) for d in solved.doubts] == [(r0, c0, solution[r0][c0])]
