"""The SE-style rater: each technique needed and used, stable ratings, no rating without a
unique, checked solution."""

from __future__ import annotations

import random

import pytest

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line
from sudoku_batch.pipeline.rating import level_of, rate_puzzle
from sudoku_batch.pipeline.rating.candidates import Board, digit_places
from sudoku_batch.pipeline.rating.chains import dynamic_forcing_chains, forcing_chains, length_bonus
from sudoku_batch.pipeline.rating.fish import fish
from sudoku_batch.pipeline.rating.singles import full_house, hidden_single_box, naked_single
from sudoku_batch.pipeline.rating.subsets import hidden_subset, naked_subset
from sudoku_batch.pipeline.rating.wings import xy_wing, xyz_wing
from tests.solve.grids import cut, random_solution

# Puzzles from the calibration sample (bench/data), each published with the SE rating of the
# technique its hardest step needs; the rater must reach the same technique as its hardest.
BY_TECHNIQUE = {
    "Pointing": "702000803680000041040806070050030020000698000300000008004070300036209710000000000",  # noqa: E501
    "Claiming": "090000080000080000001705600200603001004902500010000090706804903000239000000000000",  # noqa: E501
    "Naked pair": "209046507000800000400075009104000070708000306090000402900760001000002000602350708",  # noqa: E501
    "X-wing": "090020000005306001007109280049000560700000004052000190028503400900402800000090030",  # noqa: E501
    "Hidden pair": "009000700400000003031705920003010600000953000020040030097000310004000500600000007",  # noqa: E501
    "Naked triple": "007209300000080000000105000705000109000508000090020080009804600030000010800000003",  # noqa: E501
    "Swordfish": "800104026302060000000200090400000901020000060709000008080007000000050604640801009",  # noqa: E501
    "XY-wing": "008006300000040002005910080003000060621000473070000200030079800400060000007400500",  # noqa: E501
    "XYZ-wing": "800360507071400200000000406300600000006030900000008001503000000009004350702093004",  # noqa: E501
    "Naked quad": "040090068500100000000600400350000800700000005006000072004008000000007003130020090",  # noqa: E501
    "Jellyfish": "040186050309000106000000000060070090007000400150000037600754009090000070005803600",  # noqa: E501
    "Skyscraper": "001409030460000010008100409200010607000602000506090004805006300030000045040308900",  # noqa: E501
    "Two-string kite": "985400060006005000000600007040050300510000096003010070200009000000200600030007124",  # noqa: E501
    "Empty rectangle": "800070006400010003050603040903000402000000000020080030670050018000137000005000700",  # noqa: E501
    "Unique rectangle type 1": "000608000600201005040000010000795000000000000850000091003107200076504180081000570",  # noqa: E501
    "Unique rectangle type 2": "040000090007000300005090600054309280200000001008020700001080900003000400009705800",  # noqa: E501
    "Unique loop type 1": "000023000304900500900000836000000160000365000039000000417000002003004708000250000",  # noqa: E501
    "BUG type 1": "006090010004006087920008003050000300000352000003000090700200031490800700030060800",  # noqa: E501
    "WXYZ-wing": "968000012400009308030800004090070800000501000003040050300006020509200007620000489",  # noqa: E501
    "Unique rectangle type 3": "006200310208030050073060000000700001000689000400003000000090270060020105052008900",  # noqa: E501
    "3 skyscrapers": "060903080000060000310000047000080000850000073600405001520000036040000020006050700",  # noqa: E501
}


def board_of(text: str) -> Board:
    return Board.from_puzzle(parse_puzzle_line(text).puzzle)


@pytest.mark.parametrize("technique", sorted(BY_TECHNIQUE))
def test_each_technique_is_the_hardest_step_of_its_puzzle(technique):
    rating = rate_puzzle(parse_puzzle_line(BY_TECHNIQUE[technique]).puzzle)
    assert rating.techniques[-1] == technique
    assert rating.reason is None


def test_singles_find_what_they_should_on_a_small_state():
    board = board_of("0" * 81)
    for cell, digit in enumerate([1, 2, 3, 4, 5, 6, 7, 8]):
        board.place(cell, digit)
    step = full_house(board)
    assert step.placements == ((8, 9),) and step.difficulty == 1.0
    board = board_of("0" * 81)
    for r, c in [(1, 4), (2, 7), (4, 1), (7, 2)]:  # 1s that leave box 1 only r1c1 for a 1
        board.place(r * 9 + c, 1)
    step = hidden_single_box(board)
    assert (0, 1) in step.placements and step.difficulty == 1.2


def _state(cands_by_cell: dict[int, str]) -> Board:
    """An empty board whose listed cells have only the listed candidates."""
    board = board_of("0" * 81)
    for cell, digits in cands_by_cell.items():
        board.cands[cell] = sum(1 << (int(d) - 1) for d in digits)
    return Board(board.geo, board.values, board.cands)  # the per-digit places from these


def test_naked_single_on_a_cell_with_one_candidate():
    step = naked_single(_state({40: "7"}))
    assert step.placements == ((40, 7),) and step.difficulty == 2.3


def test_naked_pair_strikes_its_digits_from_the_rest_of_the_row():
    step = naked_subset(2)(_state({0: "12", 1: "12"}))
    assert (5, 1) in step.eliminations and (5, 2) in step.eliminations
    assert all(cell not in (0, 1) for cell, _ in step.eliminations)


def test_hidden_pair_strikes_the_other_digits_of_its_cells():
    # Digits 1 and 2 may only go in r1c1 and r1c2 of row 1 (struck from the other seven cells).
    board = _state({c: "3456789" for c in range(2, 9)})
    step = hidden_subset(2)(board)
    assert set(step.eliminations) >= {(0, d) for d in range(3, 10)}


def test_x_wing_on_rows_clears_its_columns():
    board = board_of("0" * 81)
    # digit 5 only in columns 1 and 5 of rows 1 and 6
    for r in (0, 5):
        for c in range(9):
            if c not in (0, 4):
                board.eliminate(r * 9 + c, 5)
    step = fish(2)(board)
    assert step.technique == "X-wing"
    assert (2 * 9 + 0, 5) in step.eliminations and (0, 5) not in step.eliminations


def test_xy_wing_and_xyz_wing():
    # Pivot r1c1 {1,2}; pincers r1c5 {1,3} and r3c2 {2,3}: 3 goes from r3c5 (sees both)... and
    # r1c2/r1c3 (box of one pincer, row of the other).
    step = xy_wing(_state({0: "12", 4: "13", 19: "23"}))
    assert (1, 3) in step.eliminations and (2, 3) in step.eliminations
    step = xyz_wing(_state({0: "123", 1: "13", 9: "23"}))  # all in box 1
    assert (2, 3) in step.eliminations and step.difficulty == 4.4


def test_a_forcing_chain_is_found_where_basic_techniques_stop():
    # Published SE 6.6 (sample): needs a chain after the basic techniques.
    rating = rate_puzzle(
        parse_puzzle_line(
            "000901000060040020000203000700000008050020040028000590000050000005090300603702104"
        ).puzzle
    )
    assert rating.score is not None and 6.0 <= rating.score <= 7.6
    assert any("chain" in t.lower() for t in rating.techniques)


def test_chain_tiers_return_sound_steps_on_a_hard_board():
    text = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
    solution = rate_puzzle(parse_puzzle_line(text).puzzle)
    assert solution.score is not None  # "the world's hardest": solved, checked, rated high
    board = board_of(text)
    for find in (forcing_chains, dynamic_forcing_chains):
        step = find(board)
        if step:
            assert step.difficulty >= 6.6


def test_length_bonus_follows_se_thresholds():
    assert [length_bonus(c) for c in (4, 6, 7, 8, 10, 11)] == pytest.approx(
        [0.0, 0.0, 0.1, 0.1, 0.2, 0.3]
    )


def test_ratings_are_stable_across_runs():
    texts = list(BY_TECHNIQUE.values())
    first = [rate_puzzle(parse_puzzle_line(t).puzzle) for t in texts]
    assert first == [rate_puzzle(parse_puzzle_line(t).puzzle) for t in texts]


def test_no_rating_for_several_solutions():
    rating = rate_puzzle(parse_puzzle_line("0" * 81).puzzle)
    assert rating.score is None and "more than one" in rating.reason
    assert rating.level == level_of(None)


def test_no_rating_for_clashing_givens_or_no_solution():
    assert rate_puzzle(parse_puzzle_line("11" + "0" * 79).puzzle).score is None
    # r1 holds 1..8 and column 9 already has a 9 lower down: r1c9 has nothing left.
    text = "12345678" + "0" * 9 + "9" + "0" * 63
    assert rate_puzzle(parse_puzzle_line(text).puzzle).score is None


def test_no_rating_when_the_given_solution_differs():
    text = BY_TECHNIQUE["Pointing"]
    puzzle = parse_puzzle_line(text).puzzle
    good = rate_puzzle(puzzle)
    assert good.score is not None
    wrong = tuple(tuple(0 for _ in range(9)) for _ in range(9))
    assert rate_puzzle(puzzle, solution=wrong).score is None


def test_other_sizes_say_how_they_were_rated():
    import random

    shape = GridShape(2, 3)
    rng = random.Random(5)
    puzzle = cut(random_solution(shape, rng), shape, rng, holes=0.5)
    rating = rate_puzzle(puzzle)
    if rating.score is not None:
        assert "6x6" in rating.reason
    blocked = Puzzle(shape, ((None,) + (0,) * 5,) + ((0,) * 6,) * 5)
    assert rate_puzzle(blocked).score is None


def test_board_keeps_each_digits_places_in_step_with_its_candidates():
    board = board_of("0" * 81)
    solution = random_solution(GridShape(3, 3), random.Random(5))
    for cell in range(0, 81, 7):
        board.place(cell, solution[cell // 9][cell % 9])
    for cell in range(1, 81, 5):
        for digit in range(1, 10):
            if digit != solution[cell // 9][cell % 9] and board.cands[cell].bit_count() > 1:
                board.eliminate(cell, digit)
    copy = board.copy()
    copy.place(80, solution[8][8])
    assert board.places == digit_places(board.cands, 9)
    assert copy.places == digit_places(copy.cands, 9) != board.places
