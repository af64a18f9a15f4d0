"""The single-digit and uniqueness patterns on small candidate states built for each: the
pattern is found, with the eliminations it implies and SE's rating for it."""

from __future__ import annotations

from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line
from sudoku_batch.pipeline.rating.candidates import Board
from sudoku_batch.pipeline.rating.single_digit import (
    empty_rectangle,
    three_strong_links,
    two_strong_links,
)
from sudoku_batch.pipeline.rating.uniqueness import unique_loops
from sudoku_batch.pipeline.rating.wings import wxyz_wing

ONE = 1


def _board() -> Board:
    return Board.from_puzzle(parse_puzzle_line("0" * 81).puzzle)


def _only(board: Board, digit: int, cells: list[tuple[int, int]], unit: list[int]) -> None:
    """Strike ``digit`` from the cells of ``unit`` (cell indices) other than ``cells``."""
    keep = {r * 9 + c for r, c in cells}
    for cell in unit:
        if cell not in keep:
            board.eliminate(cell, digit)


def row(r: int) -> list[int]:
    return [r * 9 + c for c in range(9)]


def col(c: int) -> list[int]:
    return [r * 9 + c for r in range(9)]


def box(b: int) -> list[int]:
    r0, c0 = 3 * (b // 3), 3 * (b % 3)
    return [(r0 + i) * 9 + c0 + j for i in range(3) for j in range(3)]


def test_skyscraper_two_rows_joined_in_a_column():
    board = _board()
    _only(board, ONE, [(0, 0), (0, 4)], row(0))
    _only(board, ONE, [(4, 0), (4, 5)], row(4))
    step = two_strong_links(board)
    assert step.difficulty == 4.0 and step.technique == "Skyscraper"
    # The cells that see both tops, r1c5 and r5c6.
    assert {(1 * 9 + 5, 1), (2 * 9 + 5, 1), (3 * 9 + 4, 1), (5 * 9 + 4, 1)} <= set(
        step.eliminations
    )


def test_two_string_kite_a_row_and_a_column_joined_in_a_box():
    board = _board()
    _only(board, ONE, [(0, 1), (0, 6)], row(0))
    _only(board, ONE, [(2, 0), (7, 0)], col(0))
    step = two_strong_links(board)
    assert step.difficulty == 4.1 and (7 * 9 + 6, 1) in step.eliminations


def test_turbot_fish_with_a_box_link():
    board = _board()
    _only(board, ONE, [(0, 0), (0, 5)], row(0))
    _only(board, ONE, [(3, 5), (5, 3)], box(4))
    step = two_strong_links(board)
    assert step.difficulty == 4.2 and step.technique == "Turbot fish"
    assert (5 * 9 + 0, 1) in step.eliminations  # r6c1 sees r1c1 and r6c4


def test_empty_rectangle_with_a_column_link():
    board = _board()
    _only(board, ONE, [(1, 0), (1, 1), (1, 2), (0, 1), (2, 1)], box(0))
    _only(board, ONE, [(1, 5), (6, 5)], col(5))
    step = empty_rectangle(board)
    assert step.difficulty == 4.2 and (6 * 9 + 1, 1) in step.eliminations


def test_three_strong_links_in_rows():
    # 1 only at r1c1/r1c5, r4c5/r4c7 and r8c7/r8c2, the links joined in columns 5 and 7:
    # r1c1 or r8c2 is 1, so r2c2 and r3c2 (box 1 and column 2) lose it.
    board = _board()
    _only(board, ONE, [(0, 0), (0, 4)], row(0))
    _only(board, ONE, [(3, 4), (3, 6)], row(3))
    _only(board, ONE, [(7, 6), (7, 1)], row(7))
    step = three_strong_links(board)
    assert step.technique == "3 skyscrapers" and step.difficulty == 5.4
    assert {(1 * 9 + 1, 1), (2 * 9 + 1, 1)} <= set(step.eliminations)


def _rectangle(cands: dict[tuple[int, int], str]) -> Board:
    """Every cell {3..9} except the listed ones."""
    board = _board()
    board.cands = [sum(1 << (d - 1) for d in range(3, 10))] * 81
    for (r, c), digits in cands.items():
        board.cands[r * 9 + c] = sum(1 << (int(d) - 1) for d in digits)
    return Board(board.geo, board.values, board.cands)  # the per-digit places from these


def test_unique_rectangle_type_1_strikes_the_pair_from_the_fourth_cell():
    board = _rectangle({(0, 0): "12", (0, 3): "12", (1, 0): "12", (1, 3): "125"})
    step = unique_loops(board)
    assert step.technique == "Unique rectangle type 1" and step.difficulty == 4.5
    assert set(step.eliminations) == {(12, 1), (12, 2)}


def test_unique_rectangle_type_4_keeps_the_locked_digit():
    # Row 2 holds 1 only in the rectangle's two roof cells: 2 leaves both.
    board = _rectangle({(0, 0): "12", (0, 3): "12", (1, 0): "123", (1, 3): "124", (1, 6): "23"})
    step = unique_loops(board)
    assert step.technique == "Unique rectangle type 4" and step.difficulty == 4.6
    assert set(step.eliminations) == {(9, 2), (12, 2)}


def test_unique_rectangle_type_3_makes_a_naked_pair_with_the_extras():
    # Roof r2c1 {1,2,3} and r2c4 {1,2,4}: one of them takes 3 or 4, so with r2c7 {3,4} they
    # make a naked pair on 3 and 4 in row 2, and 3 and 4 leave its other cells (r2c9). r2c8
    # {1,2,5} keeps type 4 out.
    board = _rectangle(
        {(0, 0): "12", (0, 3): "12", (1, 0): "123", (1, 3): "124", (1, 6): "34", (1, 7): "125"}
        | {(1, 8): "345"}
    )
    step = unique_loops(board)
    assert step.technique == "Unique rectangle type 3" and step.difficulty == 4.6
    assert {(1 * 9 + 8, 3), (1 * 9 + 8, 4)} <= set(step.eliminations)


def test_no_unique_rectangle_over_four_boxes():
    board = _rectangle({(0, 0): "12", (0, 4): "12", (4, 0): "12", (4, 4): "125"})
    assert unique_loops(board) is None


def test_wxyz_wing_strikes_the_one_unrestricted_digit():
    # Pivot r1c1 {1,2,3,4}; r1c2 {1,4}, r1c3 {2,4} in its row and box, r5c1 {3,4} in its
    # column: 1, 2 and 3 are restricted (their cells see each other), 4 is not. r2c1 and r3c1
    # see every 4 of the pattern and lose it.
    board = _rectangle({(0, 0): "1234", (0, 1): "14", (0, 2): "24", (4, 0): "34"})
    step = wxyz_wing(board)
    assert step.technique == "WXYZ-wing" and step.difficulty == 5.5
    assert {(1 * 9, 4), (2 * 9, 4)} <= set(step.eliminations)


def test_a_uniqueness_step_is_not_trusted_on_a_puzzle_with_two_solutions(monkeypatch):
    # A solved grid with a deadly rectangle left open (r1c1, r1c2, r4c1, r4c2 can swap 1 and
    # 2): two solutions. A step named as a uniqueness pattern that picks one of them lets the
    # singles finish a valid grid; the rater must count the solutions and refuse.
    from sudoku_batch.pipeline.rating import rate_puzzle, rater
    from sudoku_batch.pipeline.rating.step import Step

    solved = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    grid = list(solved)
    for cell in (0, 1, 27, 28):
        grid[cell] = "0"
    puzzle = parse_puzzle_line("".join(grid)).puzzle

    def pretend_rectangle(board):
        if board.cands[0] == 0b11:
            return Step("Unique rectangle type 1", 4.5, eliminations=((0, 2),))
        return None

    monkeypatch.setattr(rater, "BASIC_TECHNIQUES", (pretend_rectangle, *rater.BASIC_TECHNIQUES))
    rating = rate_puzzle(puzzle)
    assert rating.score is None and "more than one" in rating.reason
