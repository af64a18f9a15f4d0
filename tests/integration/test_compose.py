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


SECRETS = {
    "FLOWER_BASIC_AUTH": "test:secret",
    "POSTGRES_PASSWORD": "pg-secret",
    "ANALYST_PASSWORD": "analyst-secret",
}


def compose(*args: str, env: dict[str, str] = SECRETS) -> str:
    binary = shutil.which("docker-compose")
    if binary is None:
        pytest.skip("docker-compose is not installed (apt-get install docker-compose; CI does)")
    result = subprocess.run(
        [binary, "-f", "docker-compose.yml", "config", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
    )
    if result.returncode != 0:
        raise CompositionError(result.stderr)
    return result.stdout


class CompositionError(Exception):
    pass


def test_docker_compose_config_validates() -> None:
    config = compose()
    assert set(compose("--services").split()) == SERVICES
    assert "FLOWER_BASIC_AUTH: test:secret" in config
    # Workers must scale with --scale: no fixed container names anywhere.
    assert "container_name" not in config


@pytest.mark.parametrize("missing", sorted(SECRETS))
def test_compose_has_no_default_secrets(missing: str) -> None:
    env = {name: value for name, value in SECRETS.items() if name != missing}
    with pytest.raises(CompositionError, match=missing):
        compose(env={**env, missing: ""})


def test_compose_publishes_on_localhost_checks_health_and_outlasts_tasks() -> None:
    import yaml

    from settings import Settings
    from workers.app import longest_task

    services = yaml.safe_load(compose())["services"]
    for name in ("api", "flower"):
        for port in services[name]["ports"]:
            assert str(port).startswith("127.0.0.1:") or port.get("host_ip") == "127.0.0.1"
    assert "/health" in " ".join(services["api"]["healthcheck"]["test"])
    longest = longest_task(Settings())
    for name in ("ingest-worker", "rectify-worker", "ocr-worker", "solve-worker"):
        assert "--ping" in services[name]["healthcheck"]["test"]
        minutes = int(services[name]["stop_grace_period"].rstrip("m"))
        assert minutes * 60 > longest
