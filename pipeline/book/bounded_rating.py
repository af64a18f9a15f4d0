"""The rater under a time budget: a puzzle that needs the slow chain tiers must not hold a
solve worker for seconds, so past the budget the rating is given up (null, with the reason).

``pipeline.rating`` has no step budget of its own, so the budget is a wall-clock alarm
(SIGALRM via ``setitimer``) that raises inside the rater. Signals reach only the main thread;
where the rater runs elsewhere (a threaded Celery pool, a test runner's thread) it runs in a
helper thread that is abandoned past the budget: the caller returns in time, the helper finishes
in the background. Both drivers run the solve step in a process's main thread.

A budget in seconds is not deterministic across machines: a puzzle rated just under the budget
here may be unrated on a slower machine. The default leaves a wide margin over the basic
techniques (3-20 ms) and cuts only the chain tiers' worst cases.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from pipeline.grid import Grid, Puzzle
from pipeline.rating import Rating, level_of, rate_puzzle

DEFAULT_RATING_SECONDS = 2.0


class RatingBudgetExceeded(BaseException):
    """Raised by the alarm inside the rater; a BaseException so no ``except Exception``
    in between swallows it."""


def over_budget(seconds: float) -> Rating:
    return Rating(
        None,
        (),
        level_of(None),
        f"not rated: the rater needed more than its budget of {seconds:g} s",
    )


def rate_within(puzzle: Puzzle, solution: Grid | None, seconds: float) -> Rating:
    """``rate_puzzle`` if it finishes within ``seconds``; else an unrated ``Rating`` saying so."""
    if _alarm_usable():
        try:
            with _alarm(seconds):
                return rate_puzzle(puzzle, solution)
        except RatingBudgetExceeded:
            return over_budget(seconds)
    return _rate_in_thread(puzzle, solution, seconds)


def _alarm_usable() -> bool:
    # Not in another thread, and not over an alarm someone else set (we would cancel it).
    return (
        threading.current_thread() is threading.main_thread()
        and hasattr(signal, "setitimer")
        and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    )


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise RatingBudgetExceeded

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _rate_in_thread(puzzle: Puzzle, solution: Grid | None, seconds: float) -> Rating:
    answer: list[Rating] = []
    helper = threading.Thread(
        target=lambda: answer.append(rate_puzzle(puzzle, solution)), daemon=True
    )
    helper.start()
    helper.join(seconds)
    return answer[0] if answer else over_budget(seconds)
