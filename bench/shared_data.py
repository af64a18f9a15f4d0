"""Where the shared data sets live: $SUDOKU_BATCH_SHARED_DATA, else ../shared/data beside the
checkout. Benchmarks and tests read them from there; nothing copies them into the project."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path:
    return Path(os.environ.get("SUDOKU_BATCH_SHARED_DATA", REPO_ROOT.parent / "shared" / "data"))
