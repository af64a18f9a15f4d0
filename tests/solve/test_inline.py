"""The OCR task's inline solving (pipeline.solve.inline): what propagation or the in-process
solver settles within the budget comes back as the configured backend's own verdict; anything
else raises ``BeyondBudget`` instead of a verdict."""

from __future__ import annotations

import pytest

from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.inline import (
    DEFAULT_INLINE_CONFLICTS,
    BeyondBudget,
    budgeted_backend,
)
from sudoku_batch.pipeline.solve.solver import solve_puzzle
from tests.solve.test_drat import HARD_9X9
from tests.solve.test_kissat import pigeonhole

SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
# One given taken out of each of the first three rows: propagation alone fills them again.
FORCED = "." + SOLVED[1:9] + "." + SOLVED[10:18] + "." + SOLVED[19:]


def test_a_grid_propagation_decides_is_settled_without_any_search():
    puzzle = parse_puzzle_line(FORCED).puzzle
    for name in ("auto", "kissat"):
        result = solve_puzzle(puzzle, budgeted_backend(name, 0), 10)
        assert (result.verdict, result.backend) == ("solved", name)


@pytest.mark.parametrize("line", HARD_9X9)
def test_a_hard_9x9_is_settled_within_the_default_budget_as_the_full_backend_settles_it(line):
    puzzle = parse_puzzle_line(line).puzzle
    inline = solve_puzzle(puzzle, budgeted_backend("auto", DEFAULT_INLINE_CONFLICTS), 10)
    full = solve_puzzle(puzzle, make_backend("auto"), 10)
    assert (inline.verdict, inline.solution, inline.backend) == (
        full.verdict,
        full.solution,
        full.backend,
    )


@pytest.mark.parametrize("name", ["auto", "minisat", "cadical", "kissat"])
def test_a_search_past_the_budget_raises_instead_of_answering(name):
    backend = budgeted_backend(name, 1_000)
    with pytest.raises(BeyondBudget):
        backend.solve_cnf(pigeonhole(9), 10)
    with pytest.raises(BeyondBudget):  # Kissat never runs inline; others need search here
        solve_puzzle(parse_puzzle_line(HARD_9X9[0]).puzzle, budgeted_backend(name, 0), 10)
