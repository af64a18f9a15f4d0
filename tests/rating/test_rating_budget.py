"""The rater's budget holds for large hard grids in both cores (issue 33): a hard 25x25 and a
hard 16x16 rated under a 0.5 s budget come back soon after it, with the reason, where the
compiled core used to never return (a signal is not seen inside compiled loops)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pipeline.rating
from settings.environment import PURE_RATER as PURE_ENV
from tests.conftest import REPO_ROOT

BUDGET = 0.5
# Generous: the test asserts a bound, not a time (the machine is shared).
CPU_BOUND = 5 * BUDGET
# (file, puzzle line among its puzzles): the 4th Gecode 25x25 (the issue's; its backtracking
# fallback has no end in sight), a 25x25 and a 16x16 that also exhaust a 2 s budget.
HARD = (("gecode_25x25.txt", 3), ("eliejaz_25x25.txt", 0), ("eliejaz_16x16.txt", 5))

RATE = """
import json, sys, time
import pipeline.rating
from pipeline.book.bounded_rating import rate_within
from pipeline.ingest.textpuzzle import parse_puzzle_line
out = {"compiled": pipeline.rating.COMPILED, "ratings": []}
for text in sys.argv[2:]:
    puzzle = parse_puzzle_line(text).puzzle
    started = time.process_time()
    rating = rate_within(puzzle, None, float(sys.argv[1]))
    out["ratings"].append([time.process_time() - started, rating.score, rating.reason])
print(json.dumps(out))
"""


def hard_lines(shared: Path) -> list[str]:
    lines = []
    for name, index in HARD:
        path = shared / "puzzles" / name
        if not path.is_file():
            pytest.skip(f"{path} is missing from the shared data")
        puzzles = [
            line.split()[0]
            for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")
        ]
        lines.append(puzzles[index])
    return lines


@pytest.mark.parametrize("core", ["compiled", "pure"])
def test_a_hard_25x25_and_16x16_are_rated_within_a_small_budget(core, shared_data):
    if core == "compiled" and not pipeline.rating.COMPILED:
        if os.environ.get("CI", "").lower() == "true":  # .ci/run compiles it: never skipped
            pytest.fail("the rating core is not compiled (CI=true: .ci/run compiles it)")
        pytest.skip("the rating core is not compiled here (SUDOKU_BATCH_COMPILE=1 at install)")
    done = subprocess.run(
        [sys.executable, "-c", RATE, str(BUDGET), *hard_lines(shared_data)],
        cwd=REPO_ROOT,
        env={**os.environ, PURE_ENV: "1" if core == "pure" else "0"},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    out = json.loads(done.stdout)
    assert out["compiled"] == (core == "compiled")
    for (name, index), (cpu, score, reason) in zip(HARD, out["ratings"], strict=True):
        assert cpu < CPU_BOUND, f"{name} #{index}: {cpu:.2f} s CPU under a {BUDGET} s budget"
        assert score is None and f"budget of {BUDGET:g} s" in reason, (name, index, reason)


def test_a_budget_in_units_stops_both_cores_at_the_same_point():
    """A rating stopped by its units is the same on every machine and in both cores: the
    units spent before a hard 9x9 runs out are counted, not timed."""
    script = (
        "import json, sys\n"
        "import pipeline.rating as r\n"
        "from pipeline.rating.budget import Budget, BudgetExhausted\n"
        "from tests.book.test_book_facts import hard_puzzle\n"
        "spent = []\n"
        "for share in (0, 1, 2):\n"
        "    budget = Budget(units=spent[0][1] * share // 3 if spent else None)\n"
        "    try:\n"
        "        score = r.rate_puzzle(hard_puzzle(), None, budget).score\n"
        "    except BudgetExhausted:\n"
        "        score = None\n"
        "    spent.append([score, budget.spent])\n"
        "print(json.dumps([r.COMPILED, spent]))\n"
    )
    answers = {}
    for pure in ("1", "0"):
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO_ROOT,
            env={**os.environ, PURE_ENV: pure},
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        )
        compiled, spent = json.loads(done.stdout)
        answers[compiled] = spent
    pure = answers[False]
    # Unlimited, then a third and two thirds of what that spent: both stopped, each just past
    # its units (by at most one charge).
    (score, full), (_, third), (_, two_thirds) = pure[0], pure[1], pure[2]
    assert score is not None and pure[1][0] is None and pure[2][0] is None
    assert full // 3 < third < two_thirds < full
    if True in answers:
        assert answers[True] == pure


def test_the_clock_backstop_stops_a_rating_with_units_to_spare(shared_data):
    """The wall-clock deadline, for a machine far slower than the one the units were measured
    on, is read inside the same loops (whichever core this process runs)."""
    from pipeline.ingest.textpuzzle import parse_puzzle_line
    from pipeline.rating import rate_puzzle
    from pipeline.rating.budget import Budget, BudgetExhausted

    puzzle = parse_puzzle_line(hard_lines(shared_data)[0]).puzzle
    budget = Budget(deadline=time.perf_counter() + BUDGET)
    started = time.process_time()
    with pytest.raises(BudgetExhausted) as stopped:
        rate_puzzle(puzzle, None, budget)
    assert stopped.value.by_clock
    assert time.process_time() - started < CPU_BOUND
