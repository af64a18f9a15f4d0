"""A non-editable install works: a wheel built from the tree with the compiled rating core
(SUDOKU_BATCH_COMPILE=1, as the Dockerfile builds it), installed in a fresh venv, runs
`migrate` and `run examples/` from outside the source tree (the migrations ship in the store
package), and its compiled core rates as the .py sources do. Slow (a wheel build and the
rater's compile: minutes), so marked; CI runs it all the same."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from settings.environment import PURE_RATER as PURE_ENV
from tests.conftest import REPO_ROOT
from tests.wheels import build_wheel, install_in_fresh_venv

pytestmark = pytest.mark.slow
SAMPLE = REPO_ROOT / "bench" / "data" / "se_rated_sample.txt"


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel, its rating core compiled."""
    folder = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(folder / "wheels", env={"SUDOKU_BATCH_COMPILE": "1"})
    venv = folder / "venv"
    install_in_fresh_venv(wheel, venv)
    return venv


def test_a_wheel_installed_in_a_fresh_venv_runs_migrate_and_run(venv: Path, tmp_path: Path):
    python = venv / "bin" / "python"
    where = subprocess.run(
        [python, "-c", "import store.migrate as m; print(m.MIGRATIONS_DIR)"],
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


def test_the_compiled_and_pure_cores_rate_alike(venv: Path, tmp_path: Path):
    """Every 12th sample puzzle (all bands, chains included) rated by both cores."""
    if shutil.which("cc") is None and os.environ.get("CI", "").lower() != "true":
        pytest.skip("no C compiler here to build the rating core with")
    lines = [line.split()[0] for line in SAMPLE.read_text().splitlines() if line[:1].isdigit()]
    script = (
        "import json, sys, importlib.machinery\n"
        "import pipeline.rating as r, pipeline.rating.singles as s\n"
        "from pipeline.ingest.textpuzzle import parse_puzzle_line\n"
        "compiled = s.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))\n"
        "assert r.COMPILED == compiled, (r.COMPILED, s.__file__)\n"
        "out = [r.rate_puzzle(parse_puzzle_line(t).puzzle) for t in sys.argv[1:]]\n"
        "print(json.dumps([r.COMPILED, [[x.score, list(x.techniques), x.reason] for x in out]]))\n"
    )
    rated = {}
    for pure in ("0", "1"):
        done = subprocess.run(
            [venv / "bin" / "python", "-c", script, *lines[::12]],
            cwd=tmp_path,
            env={**os.environ, PURE_ENV: pure},
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        rated[pure] = json.loads(done.stdout)
    assert rated["0"][0] is True, "the wheel's rating core was not compiled"
    assert rated["1"][0] is False
    assert rated["0"][1] == rated["1"][1]
