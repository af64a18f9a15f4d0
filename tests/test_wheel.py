"""A non-editable install works, and the compiled rating core is optional: one wheel built from
the tree, asked to compile the core (SUDOKU_BATCH_COMPILE=1) where every compile fails
(CC=/bin/false, as with no C compiler), installs in a fresh venv without extensions, rates from
the .py sources, and runs `migrate` and `run examples/` from outside the source tree (the
migrations ship in the package). The compiled core itself is what the Dockerfile and
.ci/run build in place; tests/rating/test_compiled_core.py rates with both cores there. Slow (a
wheel build), so marked; CI runs it all the same."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.wheels import build_wheel, install_in_fresh_venv

pytestmark = pytest.mark.slow
SAMPLE = REPO_ROOT / "bench" / "data" / "se_rated_sample.txt"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tree's wheel, asked to compile the rating core with a compiler that always fails."""
    folder = tmp_path_factory.mktemp("wheels")
    return build_wheel(folder, env={"SUDOKU_BATCH_COMPILE": "1", "CC": "/bin/false"})


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel."""
    venv = tmp_path_factory.mktemp("wheel") / "venv"
    install_in_fresh_venv(wheel, venv)
    return venv


def test_the_wheel_installs_one_top_level_name(wheel: Path):
    """Only ``sudoku_batch`` goes into site-packages; the repository's folders (pipeline/,
    workers/, migrations/, ...) are its subpackages."""
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert top == {"sudoku_batch", "sudoku_batch-0.1.0.dist-info"}, top
    for folder in ("pipeline", "workers", "api", "store", "migrations"):
        assert f"sudoku_batch/{folder}/__init__.py" in names
    assert "sudoku_batch/migrations/versions/0001_initial_schema.py" in names
    assert "sudoku_batch/api/templates/_grids.html.j2" in names


def test_without_a_compiler_the_wheel_installs_and_rates_from_the_sources(
    wheel: Path, venv: Path, tmp_path: Path
):
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".so")]
    script = (
        "import sys\n"
        "import sudoku_batch.pipeline.rating as r, sudoku_batch.pipeline.rating.chains as c\n"
        "from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line\n"
        "print(r.COMPILED, c.__file__)\n"
        "print(r.rate_puzzle(parse_puzzle_line(sys.argv[1]).puzzle))\n"
    )
    puzzle = next(line for line in SAMPLE.read_text().splitlines() if line[:1].isdigit()).split()[0]
    ran = subprocess.run(
        [venv / "bin" / "python", "-W", "error", "-c", script, puzzle],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    core, rating = ran.stdout.splitlines()
    compiled, where = core.split()
    assert compiled == "False" and where.startswith(str(venv)) and where.endswith(".py")
    assert rating.startswith("Rating(score=") and "score=None" not in rating


def test_a_wheel_installed_in_a_fresh_venv_runs_migrate_and_run(venv: Path, tmp_path: Path):
    python = venv / "bin" / "python"
    where = subprocess.run(
        [python, "-c", "import sudoku_batch.store.migrate as m; print(m.MIGRATIONS_DIR)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert where.startswith(str(venv)), where

    cli = venv / "bin" / "sudoku-batch"
    database = f"sqlite:///{tmp_path / 'migrated.sqlite'}"
    migrated = subprocess.run(
        [cli, "migrate", "--database-url", database], cwd=tmp_path, capture_output=True, text=True
    )
    assert migrated.returncode == 0, migrated.stderr
    out = tmp_path / "out"
    ran = subprocess.run(
        [
            cli,
            "run",
            str(REPO_ROOT / "examples"),
            "--out",
            str(out),
            "--jobs",
            "2",
            "--no-progress",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stderr
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert records and all(r["status"] == "solved" for r in records)
    version = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith("sudoku-batch ")
