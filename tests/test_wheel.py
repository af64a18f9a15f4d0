"""A non-editable install works: a wheel built from the tree, installed in a fresh venv, runs
`migrate` and `run examples/` from outside the source tree (the migrations ship in the store
package). Slow (about a minute: a wheel build), so marked; CI runs it all the same."""

from __future__ import annotations

import json
import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow


def test_a_wheel_installed_in_a_fresh_venv_runs_migrate_and_run(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "-w",
            str(wheels),
            str(REPO_ROOT),
        ],
        check=True,
        timeout=600,
    )
    (wheel,) = wheels.glob("sudoku_batch-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    # The dependencies are this environment's (no download); a path line in a .pth file adds
    # them without running their .pth files, so this tree's editable install stays out.
    (site_packages,) = (venv / "lib").glob("python3*/site-packages")
    (site_packages / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
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
