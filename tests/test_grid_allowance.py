"""No grid holds its process past its solve timeout plus the allowance for what follows the
solve (issue 33): ``run --text`` on hard 25x25s, whose rating used to never return in the
compiled core. The same through a real Celery worker is in
tests/integration/test_grid_allowance_worker.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sudoku_batch.pipeline.book.bounded_rating import DEFAULT_RATING_SECONDS
from sudoku_batch.pipeline.book.facts import facts_allowance
from tests.conftest import REPO_ROOT

TIMEOUT = 5.0  # seconds of solve per grid: short, so some hard ones time out
PER_GRID = TIMEOUT + facts_allowance(DEFAULT_RATING_SECONDS)
# The first four Gecode 25x25s (the fourth is the issue's).
LINES = 4
CLI = "import sys; from sudoku_batch.cli import main; sys.exit(main())"


def hard_25x25s(shared: Path) -> str:
    path = shared / "puzzles" / "gecode_25x25.txt"
    if not path.is_file():
        pytest.skip(f"{path} is missing from the shared data")
    lines = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return "".join(f"{line.split()[0]}\n" for line in lines[:LINES])


def check_grid_ended_in_time(status: str, seconds: float, rating, message) -> None:
    """A grid's outcome: a verdict, a rating or the reason for none, in time (generously:
    twice the bound, as the machine is shared; the rater used to never return at all)."""
    assert status in ("solved", "timeout"), status
    assert seconds < 2 * PER_GRID, f"{seconds:.1f} s for one grid (bound {PER_GRID:g} s)"
    assert rating is not None or message, "an unrated grid says why"


def test_run_text_ends_every_hard_25x25_within_its_timeout_and_allowance(tmp_path, shared_data):
    source = tmp_path / "hard.txt"
    source.write_text(hard_25x25s(shared_data))
    out = tmp_path / "out"
    command = [sys.executable, "-c", CLI, "run", "--text", str(source), "--out", str(out)]
    command += ["--timeout", str(TIMEOUT), "--jobs", "1", "--no-progress"]
    # The whole run, startup included, bounded: it used to run until killed.
    subprocess.run(command, cwd=REPO_ROOT, timeout=2 * LINES * PER_GRID + 120, check=False)
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(records) == LINES
    for record in records:
        check_grid_ended_in_time(
            record["status"], record["seconds"]["solve"], record["rating"], record["message"]
        )


def test_a_grid_past_the_canonical_forms_bound_says_so_in_its_message(tmp_path):
    source = tmp_path / "blank.txt"
    source.write_text("." * 625 + "\n")
    out = tmp_path / "out"
    command = [sys.executable, "-c", CLI, "run", "--text", str(source), "--out", str(out)]
    command += ["--timeout", str(TIMEOUT), "--jobs", "1", "--no-progress"]
    subprocess.run(command, cwd=REPO_ROOT, timeout=PER_GRID + 120, check=False)
    [record] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert record["status"] == "multiple_solutions"
    assert record["message"].startswith("the givens admit more than one solution; ")
    assert "no canonical form" in record["message"] and record["duplicate_of"] is None
    assert record["seconds"]["solve"] < 2 * PER_GRID
