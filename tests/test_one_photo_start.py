"""What a one-photo ``run`` loads (issue 13): no process pool and, once the user's cache holds
the OCR graphs and the empty database, neither onnx (the model cut) nor Alembic. The page runs
in a process of its own, forked before the store is imported (``sudoku_batch.page_ahead``), so
this one never loads ONNX Runtime; nor tqdm without a bar, nor PostgreSQL's dialect, nor the
modules of the other commands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

PHOTO = REPO_ROOT / "examples" / "photo.jpg"
HEAVY = (
    "pebble",
    "onnx",
    "alembic",
    "concurrent.futures.process",
    "onnxruntime",
    "tqdm",
    "sqlalchemy.dialects.postgresql",
    "sudoku_batch.commands.worker",  # the other commands' modules: only `run`'s parser is made
    "sudoku_batch.commands.solve_text",
)
RUN_AND_LIST = """
import json, sys
from sudoku_batch.cli import main
code = main(["run", sys.argv[1], "--out", sys.argv[2], "--jobs", "2", "--no-progress"])
print(json.dumps({"code": code, "loaded": [m for m in sys.argv[3:] if m in sys.modules]}))
"""


def _run(out: Path, cache: Path) -> dict:
    env = {**os.environ, "SUDOKU_BATCH_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", RUN_AND_LIST, str(PHOTO), str(out), *HEAVY],
        env=env,
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def test_a_one_photo_run_starts_no_pool_and_cuts_no_model_once_cached(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = _run(tmp_path / "first", cache)
    assert first["code"] == 0
    assert "pebble" not in first["loaded"]  # one page: this process, even with --jobs 2
    second = _run(tmp_path / "second", cache)
    assert second == {"code": 0, "loaded": []}
    # The saved graphs read as the models cut in the first run did.
    assert _grids(tmp_path / "first") == _grids(tmp_path / "second")


def _grids(out: Path) -> list[tuple]:
    keys = ("status", "givens", "solution", "confidence", "corners", "doubts")
    lines = (out / "results.jsonl").read_text().splitlines()
    return [tuple(json.dumps(json.loads(line)[key]) for key in keys) for line in lines]
