"""Shared fixtures. Data from ../shared/data is found through SUDOKU_BATCH_SHARED_DATA (default:
the `shared/data` folder beside the checkout); tests that need it skip with a clear message when
it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.shared_data import shared_data_dir
from tests.seaweedfs import seaweedfs  # noqa: F401 - the S3 server fixture, one per run

REPO_ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = shared_data_dir()
    if not path.is_dir():
        pytest.skip(f"shared data not found at {path} (set SUDOKU_BATCH_SHARED_DATA)")
    return path
