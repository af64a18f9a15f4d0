"""docker-compose.yml is a valid compose file with every service the stack needs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

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
    "s3",
}


SECRETS = {
    "FLOWER_BASIC_AUTH": "test:secret",
    "POSTGRES_PASSWORD": "pg-secret",
    "ANALYST_PASSWORD": "analyst-secret",
    "AWS_ACCESS_KEY_ID": "store-key",
    "AWS_SECRET_ACCESS_KEY": "store-secret",
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

    from sudoku_batch.jobs.table import job_steps
    from sudoku_batch.settings import Settings
    from sudoku_batch.workers.app import time_limits

    services = yaml.safe_load(compose())["services"]
    for name in ("api", "flower"):
        for port in services[name]["ports"]:
            assert str(port).startswith("127.0.0.1:") or port.get("host_ip") == "127.0.0.1"
    assert "/health" in " ".join(services["api"]["healthcheck"]["test"])
    limits = time_limits(Settings())
    for name in ("ingest-worker", "rectify-worker", "ocr-worker", "solve-worker"):
        assert "--ping" in services[name]["healthcheck"]["test"]
        queue = name.removesuffix("-worker")
        hard = max(limits[row.time_limits][1] for row in job_steps() if row.queue == queue)
        # Outlasts the queue's tasks, and no more than a minute past them.
        assert hard < seconds(services[name]["stop_grace_period"]) <= hard + 60, name


def seconds(duration: str) -> float:
    """A compose duration (``6m30s``) in seconds."""
    parts = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", duration)
    assert parts is not None and duration, duration
    hours, minutes, secs = (int(part or 0) for part in parts.groups())
    return 3600 * hours + 60 * minutes + secs


README = (REPO_ROOT / "README.md").read_text()


def test_the_readme_names_every_variable_compose_requires() -> None:
    required = set(re.findall(r"\$\{(\w+):\?", (REPO_ROOT / "docker-compose.yml").read_text()))
    docker = README[README.index("With Docker:") : README.index("By hand,")]
    assert {name for name in required if f"`{name}`" in docker} == required
    compose(env={name: "user:secret" for name in required})  # those alone are enough


def by_hand_block() -> list[str]:
    """The README's by-hand commands, as a reader pastes them."""
    after = README[README.index("By hand, with Redis and PostgreSQL running") :]
    block = re.search(r"\n\n((?:    .*\n)+)", after)
    assert block is not None
    return [line[4:] for line in block.group(1).splitlines()]


def test_the_readme_by_hand_section_sets_up_a_database_and_an_absolute_data_folder(
    tmp_path: Path, database_url: str
) -> None:
    from sqlalchemy.engine import make_url

    from tests.integration.conftest import ADMIN_POSTGRES_URL

    # Pasted up to the migration, on a database of its own (dropped after) and a HOME of its own.
    lines = by_hand_block()
    setup = lines[: lines.index("sudoku-batch migrate") + 1]
    assert any(line.startswith("createdb ") for line in setup)
    name = f"readme_{uuid.uuid4().hex[:8]}"
    script = (
        "set -e\n"
        + "\n".join(setup).replace("/sudoku\n", f"/{name}\n").replace(" sudoku\n", f" {name}\n")
        + '\necho "$SUDOKU_BATCH_DATA_DIR"\n'
    )
    admin = make_url(ADMIN_POSTGRES_URL)
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PGHOST": admin.host or "127.0.0.1",
    }
    try:
        done = subprocess.run(
            ["bash", "-c", script], env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        assert Path(done.stdout.split()[-1]).is_absolute()
    finally:
        subprocess.run(["dropdb", "--if-exists", "-h", env["PGHOST"], "-U", "postgres", name])


def test_the_api_and_workers_share_an_object_store_and_no_volume() -> None:
    import yaml

    services = yaml.safe_load(compose())["services"]
    for name in ("api", "ingest-worker", "rectify-worker", "ocr-worker", "solve-worker"):
        environment = services[name]["environment"]
        assert environment["SUDOKU_BATCH_STORAGE_URL"].startswith("s3://"), name
        assert environment["AWS_ENDPOINT_URL"] == "http://s3:8333", name
        assert environment["AWS_SECRET_ACCESS_KEY"] == SECRETS["AWS_SECRET_ACCESS_KEY"]
        assert not services[name].get("volumes"), f"{name} mounts a volume"
        assert services[name]["depends_on"]["s3"]["condition"] == "service_healthy"
    assert "mini" in services["s3"]["command"]
