"""The compiled rating core is optional: without a C compiler the package still builds and
installs, and its rater runs from the .py sources. Slow (a wheel build, as tests/test_wheel.py)."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow
SAMPLE = REPO_ROOT / "bench" / "data" / "se_rated_sample.txt"


def test_without_a_compiler_the_wheel_installs_and_rates_from_the_sources(tmp_path: Path):
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), str(REPO_ROOT)],
        env={**os.environ, "CC": "/bin/false"},  # every compile fails, as with no compiler
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("sudoku_batch-*.whl")
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".so")]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    # This environment's dependencies, without its editable install (see tests/test_wheel.py).
    (site_packages,) = (venv / "lib").glob("python3*/site-packages")
    (site_packages / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
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
