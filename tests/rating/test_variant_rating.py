"""The rater and the canonical form on jigsaw and diagonal grids."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.rating import rate_puzzle
from sudoku_batch.pipeline.rating.candidates import Board
from sudoku_batch.pipeline.rating.singles import hidden_single_box
from sudoku_batch.pipeline.solve.canonical import canonical_form
from tests.solve.variants import (
    DIAGONAL,
    JIGSAW,
    JIGSAW_DIAGONAL,
    JIGSAW_SIX,
    VARIANTS,
    grid_of,
    puzzle_of,
)


@pytest.mark.parametrize(("line", "solved"), VARIANTS)
def test_variants_are_rated_on_their_units_and_say_the_scale_is_not_established(line, solved):
    puzzle = puzzle_of(line)
    rating = rate_puzzle(puzzle, grid_of(solved))
    assert rating.score is not None and rating.techniques
    assert rating.reason.startswith(
        f"{puzzle.shape.variant} Sudoku: the SE scale is not established"
    )


def test_a_classic_rating_says_nothing_of_variants():
    classic = puzzle_of(
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
    )
    assert "not established" not in rate_puzzle(classic).reason


def test_a_hidden_single_in_a_diagonal_is_found():
    # 1..8 down the main diagonal: 9's only place on it is r9c9, and no box or line says so.
    rows = [[0] * 9 for _ in range(9)]
    for i in range(8):
        rows[i][i] = i + 1
    plain = Puzzle(GridShape(3, 3), tuple(map(tuple, rows)))
    diagonal = dataclasses.replace(plain, shape=GridShape(3, 3, diagonals=True))
    found = hidden_single_box(Board.from_puzzle(diagonal))
    assert found is not None and (80, 9) in found.placements
    assert hidden_single_box(Board.from_puzzle(plain)) is None


def _disguises(puzzle: Puzzle, rng: np.random.Generator):
    givens = np.array([[v or 0 for v in row] for row in puzzle.givens])
    regions = np.array(puzzle.shape.geometry.regions)
    relabel = np.concatenate([[0], rng.permutation(puzzle.size) + 1])
    for turns in range(4):
        for transpose in (False, True):
            g, r = np.rot90(relabel[givens], turns), np.rot90(regions, turns)
            if transpose:
                g, r = g.T, r.T
            shape = puzzle.shape
            if shape.regions is not None:
                shape = GridShape.jigsaw(r.tolist(), shape.diagonals)
            yield Puzzle(shape, tuple(tuple(int(v) for v in row) for row in g))


@pytest.mark.parametrize("line", [JIGSAW, DIAGONAL, JIGSAW_DIAGONAL, JIGSAW_SIX])
def test_the_canonical_form_moves_the_regions_with_the_cells(line):
    puzzle = puzzle_of(line)
    form = canonical_form(puzzle)
    assert form.complete is not puzzle.shape.diagonals
    forms = {canonical_form(p).text for p in _disguises(puzzle, np.random.default_rng(5))}
    assert forms == {form.text}


def test_the_form_tells_variants_and_partitions_apart():
    jigsaw = puzzle_of(JIGSAW)
    forms = {
        canonical_form(jigsaw).text,
        canonical_form(dataclasses.replace(jigsaw, shape=GridShape(3, 3))).text,
        canonical_form(puzzle_of(JIGSAW + "/X")).text,
    }
    assert len(forms) == 3
    # The same givens in a partition that is another one's mirror image are another puzzle.
    regions = [list(row) for row in jigsaw.shape.geometry.regions]
    flipped = [row[::-1] for row in regions]  # the regions mirrored, the givens not
    moved = dataclasses.replace(jigsaw, shape=GridShape.jigsaw(flipped))
    assert canonical_form(moved) != canonical_form(jigsaw)
    # The regions relabelled are the same partition: the same form.
    relabelled = GridShape.jigsaw([[chr(ord("z") - k) for k in row] for row in regions])
    assert canonical_form(dataclasses.replace(jigsaw, shape=relabelled)) == canonical_form(jigsaw)
