"""The tests' S3 server (``bench.seaweedfs``): one for the run's tests that only read and
write, each under a prefix of its own. Without the binary they skip, except under ``CI=true``,
where they fail."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from bench.seaweedfs import SeaweedFS, SeaweedFSMissing, weed_binary


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def needs_weed() -> None:
    """Skip a test that needs SeaweedFS's binary when it is missing; under CI=true, fail."""
    try:
        weed_binary()
    except SeaweedFSMissing as missing:
        if in_ci():
            pytest.fail(f"{missing} (CI=true: services must be up, not skipped)")
        pytest.skip(str(missing))


@pytest.fixture(scope="session")
def seaweedfs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeaweedFS]:
    needs_weed()
    server = SeaweedFS(tmp_path_factory.mktemp("seaweedfs"))
    server.start()
    yield server
    server.stop()
