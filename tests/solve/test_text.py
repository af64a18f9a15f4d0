"""The one-line text format and the solve-text command."""

from __future__ import annotations

import argparse
import json

import pytest

from sudoku_batch.commands import solve_text
from sudoku_batch.outcome import ExitCode
from sudoku_batch.pipeline.errors import InvalidPuzzle, MalformedPuzzleText
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.ingest.textpuzzle import (
    format_grid,
    is_puzzle_line,
    parse_box,
    parse_puzzle_line,
)
from tests.solve.variants import JIGSAW_REGIONS, VARIANTS

HARD = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
HARD_SOLVED = "621943758783615492594728361142879635357461289869532174238197546916354827475286913"
SIXTEEN = (
    "G..7.....CF2B......CB3.7..E89.....D8..E.B9..7..6..6.A.G8.....2C.412..E.......5.7....G.8A"
    "1.3....4.....94.25.E.8G.3C.G.....4.6..1E..C.FA.17.6..D..A.1F4.B....58...6...5D.3..9...E2"
    ".G3......A.C4B9.EB....145...DG...F...B..8D.356..56.A..3G..1...F..D...7..CF4...29"
)


def test_nine_by_nine_with_dots_or_zeros_and_tags():
    dots = parse_puzzle_line(HARD + " 17 rated-11.9")
    zeros = parse_puzzle_line(HARD.replace(".", "0"))
    assert dots.puzzle == zeros.puzzle and dots.tags == ("17", "rated-11.9")
    assert dots.puzzle.shape == GridShape(3, 3) and dots.puzzle.givens[0][8] == 8


def test_sizes_are_inferred_and_letters_continue_the_digits():
    sixteen = parse_puzzle_line(SIXTEEN).puzzle
    assert sixteen.shape == GridShape(4, 4) and sixteen.givens[0][0] == 16
    assert format_grid(sixteen.givens) == SIXTEEN
    six = parse_puzzle_line("1" + "." * 35).puzzle
    assert six.shape == GridShape(2, 3)
    assert parse_puzzle_line("1" + "." * 35, parse_box("3x2")).puzzle.shape == GridShape(3, 2)


@pytest.mark.parametrize(
    ("line", "error", "words"),
    [
        (HARD[:80], MalformedPuzzleText, "80 symbols"),
        (HARD[:40] + "x" + HARD[41:], MalformedPuzzleText, "'x' at position 41"),
        ("A" + HARD[1:], InvalidPuzzle, "outside 1..9"),
        ("." * 49, InvalidPuzzle, "prime"),
    ],
)
def test_malformed_and_invalid_lines_say_why(line, error, words):
    with pytest.raises(error, match=words):
        parse_puzzle_line(line)


def test_comments_and_blank_lines_are_not_puzzles():
    assert not is_puzzle_line("# from somewhere") and not is_puzzle_line("   \n")
    assert is_puzzle_line(HARD)


def run_command(tmp_path, capsys, lines, *options):
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    parser = argparse.ArgumentParser()
    solve_text.register(parser.add_subparsers())
    args = parser.parse_args(["solve-text", str(path), *options])
    code = args.func(args)
    return code, capsys.readouterr().out.splitlines()


LINES = [
    "# a comment",
    HARD + " tag",
    HARD[:70],  # malformed
    "11" + HARD[2:],  # clashing givens
    "." * 81,  # many solutions
    SIXTEEN,
]


def test_one_output_line_per_input_line_in_order(tmp_path, capsys):
    code, out = run_command(tmp_path, capsys, LINES)
    assert code == ExitCode.SOME_INPUTS_FAILED  # the malformed line
    assert len(out) == len(LINES)
    assert out[0] == "# a comment"
    assert out[1] == HARD_SOLVED
    assert out[2].startswith("error: line 3: 70 symbols")
    assert out[3].startswith("invalid: the givens clash: r1c1 and r1c2 both hold 1 in row 1")
    assert out[4].startswith("multiple_solutions:")
    assert len(out[5]) == 256 and "." not in out[5]


def test_parallel_jsonl_keeps_order_and_full_records(tmp_path, capsys):
    many = LINES * 40  # several chunks per worker
    code, out = run_command(
        tmp_path, capsys, many, "--jobs", "2", "--format", "jsonl", "--backend", "cadical"
    )
    records = [json.loads(line) for line in out]
    assert [r["line"] for r in records] == [
        i for i, line in enumerate(many, 1) if not line.startswith("#")
    ]
    by_kind = {r["line"] % len(LINES): r for r in records}
    assert by_kind[2]["verdict"] == "solved" and by_kind[2]["solution"] == HARD_SOLVED
    assert by_kind[2]["tags"] == ["tag"]
    assert "error" in by_kind[3]
    assert by_kind[5]["second_solution"] != by_kind[5]["solution"]


def test_a_star_is_a_blocked_cell_both_ways():
    line = "*" + HARD[1:]
    puzzle = parse_puzzle_line(line).puzzle
    assert puzzle.givens[0][0] is None
    assert format_grid(puzzle.givens) == line


def test_solve_text_solves_jigsaw_and_diagonal_lines_on_their_units(tmp_path, capsys):
    short = JIGSAW_REGIONS[:1] + "4" + JIGSAW_REGIONS[2:]  # region 0 gives r1c2 to region 4
    lines = [line for line, _ in VARIANTS] + ["." * 81 + "/" + short]
    code, out = run_command(tmp_path, capsys, lines)
    assert out[:4] == [solved for _, solved in VARIANTS]
    assert out[4] == "error: line 5: the region of r1c1 has 8 cells, not 9"
    assert code == ExitCode.SOME_INPUTS_FAILED


def test_jsonl_says_each_line_s_variant(tmp_path, capsys):
    _, out = run_command(
        tmp_path, capsys, [HARD] + [line for line, _ in VARIANTS], "--format", "jsonl"
    )
    records = [json.loads(line) for line in out]
    assert [r["variant"] for r in records] == [
        "classic",
        "jigsaw",
        "diagonal",
        "jigsaw+diagonal",
        "jigsaw",
    ]
    assert [r["solution"] for r in records[1:]] == [solved for _, solved in VARIANTS]
