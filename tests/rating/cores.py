"""The rating cores side by side: a script run in a fresh interpreter on one core or the other
(``PURE_ENV``), and the compiled core required where .ci/run builds it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

import sudoku_batch.pipeline.rating as pipeline_rating
from sudoku_batch.settings.environment import PURE_RATER as PURE_ENV
from tests.conftest import REPO_ROOT


def printed_by(script: str, *args: str, pure: bool, timeout: float = 600) -> Any:
    """The JSON ``script`` prints, run with the sources asked for (``pure``) or the compiled
    core allowed."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=REPO_ROOT,
        env={**os.environ, PURE_ENV: "1" if pure else "0"},
        capture_output=True,
        text=True,
        check=True,
        timeout=timeout,
    )
    return json.loads(done.stdout)


def require_compiled() -> None:
    """Skip unless the rating core is compiled here; under CI=true fail instead (.ci/run
    compiles it, so its tests never skip there)."""
    if pipeline_rating.COMPILED:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("the rating core is not compiled (CI=true: .ci/run compiles it)")
    pytest.skip("the rating core is not compiled here (SUDOKU_BATCH_COMPILE=1 at install)")
