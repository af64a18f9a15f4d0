"""A non-editable install works: a wheel built from the tree, installed in a fresh venv, runs
`migrate` and `run examples/` from outside the source tree (the migrations ship in the store
package). Slow (about a minute: a wheel build), so marked; CI runs it all the same."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.wheels import build_wheel, install_in_fresh_venv

pytestmark = pytest.mark.slow


def test_a_wheel_installed_in_a_fresh_venv_runs_migrate_and_run(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    python = install_in_fresh_venv(build_wheel(tmp_path / "wheels"), venv)
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
