"""Certified and needs-review grids in the summary line and the exit code: a solved grid that
is not certified ends the run with 6, below every failure and unsolved grid; another kind of
grid (not_sudoku) needs no review."""

from __future__ import annotations

from sudoku_batch.outcome import ExitCode, exit_code, summarise


def grid(n: int, status: str = "solved", certified: bool | None = True) -> dict:
    reasons = [] if certified else [{"code": "low_confidence_given", "message": "r1c1 read 7"}]
    return {
        "source": f"in/{n}.png",
        "page": 1,
        "index": 0,
        "puzzle_id": n,
        "status": status,
        "error_code": None,
        "certified": certified,
        "review_reasons": reasons,
    }


def test_every_grid_certified_exits_0_and_says_so() -> None:
    records = [grid(1), grid(2)]
    assert exit_code(records) is ExitCode.OK
    assert "2 certified, 0 need(s) review" in summarise(records)


def test_a_solved_grid_not_certified_exits_6() -> None:
    records = [grid(1), grid(2, certified=False), grid(3, certified=False)]
    assert exit_code(records) is ExitCode.SOME_NEED_REVIEW
    assert "1 certified, 2 need(s) review" in summarise(records)


def test_an_unsolved_grid_outranks_one_to_review() -> None:
    records = [grid(1, certified=False), grid(2, "unsolvable", certified=False)]
    assert exit_code(records) is ExitCode.SOME_NOT_SOLVED
    assert "0 certified, 2 need(s) review" in summarise(records)


def test_another_kind_of_grid_needs_no_review() -> None:
    records = [grid(1), grid(2, "not_sudoku", certified=False)]
    assert exit_code(records) is ExitCode.OK
    assert "1 certified, 0 need(s) review" in summarise(records)
