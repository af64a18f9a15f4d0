"""Fixtures on the machine's real PostgreSQL and Redis (the ``services`` tests).

Each test run gets a PostgreSQL database of its own (unique name, migrated with
``alembic upgrade head``, dropped at the end) and a Redis key prefix of its own (its keys
deleted at the end), so runs never see each other's rows or messages. Without the services
these tests skip, saying which service is missing, except under ``CI=true``, where a missing
service fails the run: CI must not pass by skipping what it is there to test. Admin URLs can
be changed with SUDOKU_BATCH_TEST_POSTGRES (a database to connect to for CREATE DATABASE)
and SUDOKU_BATCH_TEST_REDIS.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
import redis
from fastapi.testclient import TestClient
from kombu.transport.redis import PRIORITY_STEPS, Channel
from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.api.app import create_app
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory, transaction
from sudoku_batch.store.keys import create_key
from sudoku_batch.store.migrate import upgrade
from sudoku_batch.store.models import Batch, InputFile, Page, Puzzle
from sudoku_batch.workers import runtime
from tests.conftest import REPO_ROOT

ADMIN_POSTGRES_URL = os.environ.get(
    "SUDOKU_BATCH_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"
)
TEST_REDIS_URL = os.environ.get("SUDOKU_BATCH_TEST_REDIS", "redis://127.0.0.1:6379/15")
RUN_ID = f"{os.getpid()}_{uuid.uuid4().hex[:8]}"
QUIET_SWEEP = 24 * 3600.0


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def skip_or_fail(reason: str) -> None:
    """Skip a test that needs what is missing; under CI=true, fail instead."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: services must be up, not skipped)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    """A fresh, migrated PostgreSQL database for this test run."""
    with empty_postgres_database(f"sudoku_batch_test_{RUN_ID}") as url:
        upgrade(url)
        yield url


@contextmanager
def empty_postgres_database(name: str) -> Iterator[str]:
    """A new, empty PostgreSQL database (its URL), dropped afterwards."""
    try:
        admin = psycopg.connect(ADMIN_POSTGRES_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        skip_or_fail(f"PostgreSQL is not reachable at {ADMIN_POSTGRES_URL}: {error}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield make_url(ADMIN_POSTGRES_URL).set(database=name).render_as_string(False)
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def sessions(database_url: str) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(database_url)
    yield make_session_factory(engine)
    engine.dispose()


@pytest.fixture(scope="session")
def redis_url() -> str:
    try:
        redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=5).ping()
    except redis.exceptions.ConnectionError as error:
        skip_or_fail(f"Redis is not reachable at {TEST_REDIS_URL}: {error}")
    return TEST_REDIS_URL


@pytest.fixture(scope="session")
def redis_prefixes(redis_url: str) -> Iterator[Callable[[str], str]]:
    """Key prefixes of this run (one per use); every key under them is deleted at the end."""
    made: list[str] = []

    def prefix(use: str) -> str:
        made.append(f"sudoku_batch_test:{RUN_ID}:{use}:")
        return made[-1]

    yield prefix
    client = redis.Redis.from_url(redis_url)
    for each in made:
        for key in client.scan_iter(match=f"{each}*"):
            client.delete(key)


@pytest.fixture(scope="session")
def make_settings(
    database_url: str,
    redis_url: str,
    redis_prefixes: Callable[[str], str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str], Settings]:
    """Settings on the test database, with a data dir and Redis prefix per use."""

    def settings(use: str) -> Settings:
        return Settings(
            data_dir=tmp_path_factory.mktemp(f"data-{use}"),
            database_url=database_url,
            broker_url=redis_url,
            redis_key_prefix=redis_prefixes(use),
            solve_timeout=30.0,
            # Runs share one database: a worker of one test must not sweep up the work other
            # tests left waiting on purpose. Tests of the sweep set their own deadlines.
            lost_after=QUIET_SWEEP,
            dead_after=QUIET_SWEEP,
        )

    return settings


@pytest.fixture
def worker_runtime(
    make_settings: Callable[[str], Settings], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Settings]:
    """Tasks run eagerly in this process see the test database and a data dir of their own."""
    settings = make_settings("tasks")
    monkeypatch.setattr(runtime, "settings", lambda: settings)
    yield settings
    for engine in (runtime.database, runtime.marker_database):
        if engine.cache_info().currsize:
            engine().dispose()
    for made in (
        runtime.database,
        runtime.sessions,
        runtime.marker_database,
        runtime.marker_sessions,
        runtime.artifacts,
    ):
        made.cache_clear()


def settings_env(settings: Settings) -> dict[str, str]:
    """The environment that makes a subprocess read ``settings``."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]),
        "SUDOKU_BATCH_DATABASE_URL": settings.database_url,
        "SUDOKU_BATCH_BROKER_URL": settings.broker_url,
        "SUDOKU_BATCH_REDIS_KEY_PREFIX": settings.redis_key_prefix,
        "SUDOKU_BATCH_DATA_DIR": str(settings.data_dir),
        "SUDOKU_BATCH_SOLVE_TIMEOUT": str(settings.solve_timeout),
        "SUDOKU_BATCH_STORAGE_URL": settings.storage_url,
        **{
            name.upper(): getattr(settings, name)
            for name in STORAGE_CLIENT_SETTINGS
            if getattr(settings, name)
        },
        **{
            f"SUDOKU_BATCH_{name.upper()}": str(getattr(settings, name))
            for name in SWEEP_SETTINGS
            if getattr(settings, name) is not None
        },
    }


STORAGE_CLIENT_SETTINGS = (
    "aws_endpoint_url",
    "aws_access_key_id",
    "aws_secret_access_key",
    "aws_default_region",
)
SWEEP_SETTINGS = (
    "sweep_seconds",
    "lost_after",
    "dead_after",
    "reclaim_after",
    "outage_backoff_max",
)


def api_client(settings: Settings, key_name: str | None = None) -> TestClient:
    """A test client of the API on ``settings`` that sends a new key of its own."""
    engine = make_engine(settings.database_url)
    try:
        with transaction(make_session_factory(engine)) as db:
            key = create_key(db, key_name or f"test-{uuid.uuid4().hex[:12]}")
    finally:
        engine.dispose()
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {key}"})


def add_read_puzzle(sessions: sessionmaker[Session], batch_id: str, source: str) -> uuid.UUID:
    """A page of the batch's one input file, named ``source``, with one puzzle read on it (no
    cells): the puzzle's public id."""
    with sessions.begin() as db:
        batch = db.scalars(select(Batch).where(Batch.public_id == batch_id)).one()
        upload = db.scalars(select(InputFile).where(InputFile.batch_id == batch.id)).one()
        page = Page(
            batch_id=batch.id, input_file_id=upload.id, source=source, page_number=1,
            format="image", status="done",
        )  # fmt: skip
        db.add(page)
        db.flush()
        puzzle = Puzzle(batch_id=batch.id, page_id=page.id, index_on_page=0, status="read")
        db.add(puzzle)
        db.flush()
        return puzzle.public_id


def form_token(browser: TestClient, page: str = "/ui/login") -> str:
    """The login and logout forms' token, as a browser gets it with ``page`` (api.ui)."""
    found = re.search(r'name="form_token" value="([^"]+)"', browser.get(page).text)
    assert found, f"no form token on {page}"
    return found.group(1)


def queued(settings: Settings, queue: str) -> list[dict]:
    """The messages waiting in a queue, highest priority first: kombu's Redis transport keeps
    one list per priority step (a task's priority, ``JobStep.priority`` in jobs.table, picks it)."""
    client = redis.Redis.from_url(settings.broker_url)
    keys = [f"{settings.redis_key_prefix}{queue}"]
    keys += [f"{keys[0]}{Channel.sep}{step}" for step in PRIORITY_STEPS if step]
    return [json.loads(m) for key in keys for m in reversed(client.lrange(key, 0, -1))]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Service:
    """A subprocess with its output in a log file; stopped (then killed) on ``stop``."""

    def __init__(
        self,
        name: str,
        argv: list[str],
        env: dict[str, str],
        log_dir: Path,
        cwd: Path = REPO_ROOT,
    ):
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            argv, env=env, cwd=cwd, stdout=self.log, stderr=subprocess.STDOUT
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def stop(self) -> None:
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def celery_argv(*args: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "sudoku_batch.workers.app", *args]


def image_worker(hostname: str, env: dict[str, str], log_dir: Path) -> Service:
    """A Celery worker of every image stage, one task at a time, as ``hostname``."""
    return Service(
        "worker",
        celery_argv(
            "worker",
            "--pool=solo",
            "--queues=ingest,rectify,ocr,solve",
            f"--hostname={hostname}",
            "--loglevel=INFO",
            "--without-mingle",
        ),
        env,
        log_dir,
    )


def wait_until(condition: Callable[[], object], limit: float, what: str, interval: float = 0.5):
    """Poll ``condition`` until it answers truthy; fail (not hang) once ``limit`` seconds pass."""
    deadline = time.monotonic() + limit
    while True:
        answer = condition()
        if answer:
            return answer
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(interval)


# The review pages' browser stack, one for the whole run, whichever modules use it.
from tests.integration import browser_stack  # noqa: E402

stack, browser, screenshots = browser_stack.stack, browser_stack.browser, browser_stack.screenshots

# Fixtures of helper modules, registered here so that each is one fixture whichever modules
# use it (imported into each module, a session fixture would be made once per module): the
# fault tests' private Redis and batch runs, and the real embedded run the results tests read.
from tests.integration import fault_run, results_run  # noqa: E402

redis_server, run_on = fault_run.redis_server, fault_run.run_on
real_run = results_run.real_run
