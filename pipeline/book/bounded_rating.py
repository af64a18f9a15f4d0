"""The rater under a budget: a puzzle that needs the slow chain tiers, or a large grid whose
backtracking fallback has no end in sight, must not hold a solve worker, so past the budget the
rating is given up (null, with the reason).

The budget is given in seconds (``SUDOKU_BATCH_RATING_SECONDS``) and spent in work units
(``pipeline.rating.budget``), ``UNITS_PER_SECOND`` to the second, so a rating stops at the same
point on every machine and in both cores. The units are counted inside the technique, chain and
search loops, so the budget holds in compiled code and for every size, with no signal and no
helper thread. A unit is dearest in the 9x9 chain tiers; ``UNITS_PER_SECOND`` is set a little
under the compiled core's rate there, so a budget of S seconds is at most about S seconds of
its work (each core's rates: docs/book_check.md, "The rater's budget"). A wall-clock deadline of
``BACKSTOP`` times the budget backs the units up, for a machine much slower or busier than the
one measured: no rating holds its caller longer than that.
"""

from __future__ import annotations

import time

from sudoku_batch.pipeline.grid import Grid, Puzzle
from sudoku_batch.pipeline.rating import Rating, level_of, rate_puzzle
from sudoku_batch.pipeline.rating.budget import Budget, BudgetExhausted

DEFAULT_RATING_SECONDS = 2.0
# A little under the compiled core's units a CPU second on the 9x9 chain tiers
# (bench/rating_budget.py units).
UNITS_PER_SECOND = 3_000_000
BACKSTOP = 2.0  # the wall-clock deadline, in budgets


def rating_budget(seconds: float) -> Budget:
    return Budget(
        units=round(seconds * UNITS_PER_SECOND),
        deadline=time.perf_counter() + BACKSTOP * seconds,
    )


def over_budget(seconds: float, by_clock: bool) -> Rating:
    how = (
        f"stopped by the clock at {BACKSTOP * seconds:g} s"
        if by_clock
        else f"{round(seconds * UNITS_PER_SECOND):,} work units"
    )
    return Rating(
        None,
        (),
        level_of(None),
        f"not rated: the rater needed more than its budget of {seconds:g} s ({how})",
    )


def rate_within(puzzle: Puzzle, solution: Grid | None, seconds: float) -> Rating:
    """``rate_puzzle`` if it finishes within the budget of ``seconds``; else an unrated
    ``Rating`` saying so."""
    try:
        return rate_puzzle(puzzle, solution, rating_budget(seconds))
    except BudgetExhausted as exhausted:
        return over_budget(seconds, exhausted.by_clock)
