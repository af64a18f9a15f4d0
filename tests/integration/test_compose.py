"""docker-compose.yml is a valid compose file with every service the stack needs."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.conftest import REPO_ROOT

SERVICES = {
    "postgres",
    "redis",
    "migrate",
    "api",
    "flower",
    "ingest-worker",
    "rectify-worker",
    "ocr-worker",
    "solve-worker",
}


def compose(*args: str) -> str:
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.skip("docker-compose is not installed (apt-get install docker-compose; CI does)")
    result = subprocess.run(
        [binary, "-f", "docker-compose.yml", "config", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "FLOWER_BASIC_AUTH": "test:secret"},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_docker_compose_config_validates() -> None:
    config = compose()
    assert set(compose("--services").split()) == SERVICES
    assert "FLOWER_BASIC_AUTH: test:secret" in config
    # Workers must scale with --scale: no fixed container names anywhere.
    assert "container_name" not in config
