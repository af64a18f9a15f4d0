"""The canonical form: one form for every disguise, distinct forms for distinct puzzles."""

from __future__ import annotations

import random

import pytest

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.ingest.textpuzzle import is_puzzle_line, parse_puzzle_line
from sudoku_batch.pipeline.solve.canonical import canonical_form
from tests.solve.grids import cut, random_solution

# A 17-clue puzzle (from the public list of all known 17-clue puzzles).
SEVENTEEN = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"


def disguise(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """A random member of the validity-preserving group applied to ``puzzle``."""
    n, br, bc = puzzle.size, puzzle.shape.box_rows, puzzle.shape.box_cols
    grid = [list(row) for row in puzzle.givens]
    relabel = list(range(1, n + 1))
    rng.shuffle(relabel)
    grid = [[relabel[v - 1] if v else 0 for v in row] for row in grid]

    def order(group: int, groups: int) -> list[int]:
        outer = rng.sample(range(groups), groups)
        return [g * group + i for g in outer for i in rng.sample(range(group), group)]

    rows, cols = order(br, n // br), order(bc, n // bc)
    grid = [[grid[r][c] for c in cols] for r in rows]
    if br == bc and rng.random() < 0.5:
        grid = [list(col) for col in zip(*grid, strict=True)]
    return Puzzle.from_rows(grid, puzzle.shape)


def test_a_puzzle_and_twenty_disguises_share_one_form():
    puzzle = parse_puzzle_line(SEVENTEEN).puzzle
    rng = random.Random(14)
    forms = {canonical_form(disguise(puzzle, rng)).text for _ in range(20)}
    assert forms == {canonical_form(puzzle).text}


def test_rotation_is_covered():
    puzzle = parse_puzzle_line(SEVENTEEN).puzzle
    rotated = [list(row) for row in zip(*puzzle.givens[::-1], strict=True)]
    assert canonical_form(Puzzle.from_rows(rotated)).text == canonical_form(puzzle).text


def test_changing_one_given_changes_the_form():
    text = SEVENTEEN[:80] + "5"
    assert canonical_form(parse_puzzle_line(text).puzzle) != canonical_form(
        parse_puzzle_line(SEVENTEEN).puzzle
    )


@pytest.mark.parametrize("shape", [GridShape(2, 2), GridShape(2, 3), GridShape(2, 4)])
def test_other_box_shapes_are_invariant_under_their_group(shape):
    rng = random.Random(3)
    n = shape.size
    puzzle = cut(random_solution(shape, rng), shape, rng, holes=0.5)
    form = canonical_form(puzzle)
    assert form.complete
    assert {canonical_form(disguise(puzzle, rng)).text for _ in range(10)} == {form.text}
    assert len(form.text) == n * n


@pytest.mark.shared_data
def test_a_thousand_distinct_puzzles_have_a_thousand_forms(shared_data):
    path = shared_data / "puzzles" / "puzzles2_17_clue"
    with path.open(encoding="utf-8") as lines:
        texts = [line for line in lines if is_puzzle_line(line)][:1000]
    forms = {canonical_form(parse_puzzle_line(t).puzzle).text for t in texts}
    assert len(forms) == 1000


def test_a_grid_whose_ties_run_past_the_bound_gets_no_form_and_says_why():
    """A blank 25x25 ties on nearly every row choice (19 million cells compared, seconds of
    work): past ``MAX_FORM_CELLS`` it gets no form, counted not timed, and the facts say why."""
    from sudoku_batch.pipeline.book.facts import puzzle_facts
    from sudoku_batch.pipeline.solve.canonical import MAX_FORM_CELLS, FormTooCostly
    from sudoku_batch.pipeline.solve.result import SolveResult, Verdict

    blank = Puzzle.from_rows([[0] * 25 for _ in range(25)], GridShape(5, 5))
    with pytest.raises(FormTooCostly, match=f"{MAX_FORM_CELLS:,} cells"):
        canonical_form(blank)
    facts = puzzle_facts(blank, blank, SolveResult(Verdict.MULTIPLE_SOLUTIONS))
    assert facts.canonical is None and facts.canonical_complete is None
    assert "no canonical form" in facts.canonical_reason
    assert "copies of it are not looked for" in facts.canonical_reason
