from __future__ import annotations

import pytest

from sudoku_batch.pipeline.errors import InvalidPuzzle
from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.solve.backend import Cnf, SatStatus, blocking_clause
from sudoku_batch.pipeline.solve.encode import AtMostOne, EncodingPolicy, encode_puzzle


def test_clashing_givens_name_the_cells():
    rows = [[0] * 4 for _ in range(4)]
    rows[0][0] = rows[0][3] = 2
    with pytest.raises(InvalidPuzzle, match=r"r1c1 and r1c4 both hold 2 in row 1"):
        encode_puzzle(Puzzle.from_rows(rows))


def test_givens_are_substituted_and_variables_numbered_compactly():
    rows = [[1, 2, 0, 0], [3, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    encoding = encode_puzzle(Puzzle.from_rows(rows))
    assert all((r, c) not in {(0, 0), (0, 1), (1, 0), (1, 1)} for r, c, _ in encoding.cells)
    # r1c3 can only be 3 or 4: its row holds 1 and 2.
    assert sorted(d for r, c, d in encoding.cells if (r, c) == (0, 2)) == [3, 4]
    used = {abs(lit) for clause in encoding.cnf.clauses for lit in clause}
    assert used == set(range(1, encoding.cnf.num_vars + 1))


def test_a_cell_with_no_digit_left_is_a_contradiction_not_a_cnf():
    rows = [[1, 2, 3, 0], [0, 0, 0, 4], [0, 0, 0, 0], [0, 0, 0, 0]]
    encoding = encode_puzzle(Puzzle.from_rows(rows))
    assert "r1c4" in encoding.contradiction


def test_blocked_cells_get_no_variables_and_relax_their_units():
    rows = [[None, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    encoding = encode_puzzle(Puzzle.from_rows(rows))
    assert not any((r, c) == (0, 0) for r, c, _ in encoding.cells)
    # Row 1 (and column 1, box 1) has three playable cells: no "every digit" clause of length 3.
    row_one = {v for v, (r, _, _) in enumerate(encoding.cells, 1) if r == 0}
    assert not any(len(cl) == 3 and set(cl) <= row_one for cl in encoding.cnf.clauses)


@pytest.mark.parametrize("method", list(AtMostOne))
def test_every_at_most_one_encoding_has_exactly_the_sudoku_grids_as_models(method, cadical):
    empty = Puzzle(GridShape(2, 2), tuple((0,) * 4 for _ in range(4)))
    encoding = encode_puzzle(empty, EncodingPolicy(long_lists=method, pairwise_up_to=1))
    cnf, grids = encoding.cnf, 0
    while (outcome := cadical.solve_cnf(cnf, 10)).status is SatStatus.SAT:
        grids += 1
        cnf = Cnf(
            cnf.num_vars, (*cnf.clauses, blocking_clause(outcome.true_vars, len(encoding.cells)))
        )
    assert grids == 288  # there are 288 4x4 Sudoku grids
