"""The compiled rating core is optional: without a C compiler the package still builds and
installs, and its rater runs from the .py sources. Slow (a wheel build, as tests/test_wheel.py)."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.wheels import build_wheel, install_in_fresh_venv

pytestmark = pytest.mark.slow
SAMPLE = REPO_ROOT / "bench" / "data" / "se_rated_sample.txt"


def test_without_a_compiler_the_wheel_installs_and_rates_from_the_sources(tmp_path: Path):
    # Asked to compile, but CC=/bin/false: every compile fails, as with no compiler.
    wheel = build_wheel(tmp_path / "wheels", env={"SUDOKU_BATCH_COMPILE": "1", "CC": "/bin/false"})
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".so")]
    venv = tmp_path / "venv"
    python = install_in_fresh_venv(wheel, venv)
    script = (
        "import sys\n"
        "import pipeline.rating as r, pipeline.rating.chains as c\n"
        "from pipeline.ingest.textpuzzle import parse_puzzle_line\n"
        "print(r.COMPILED, c.__file__)\n"
        "print(r.rate_puzzle(parse_puzzle_line(sys.argv[1]).puzzle))\n"
    )
    puzzle = next(line for line in SAMPLE.read_text().splitlines() if line[:1].isdigit()).split()[0]
    ran = subprocess.run(
        [python, "-W", "error", "-c", script, puzzle],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    core, rating = ran.stdout.splitlines()
    compiled, where = core.split()
    assert compiled == "False" and where.startswith(str(venv)) and where.endswith(".py")
    assert rating.startswith("Rating(score=") and "score=None" not in rating
