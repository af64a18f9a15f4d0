"""The review pages' stack for browser tests, shared by every module that uses it (registered
in ``conftest``): the API and a Celery worker of every image stage as processes on the test
database and a Redis prefix of their own, with a key to log in with; headless Chromium
(Debian's, driven by Selenium through Debian's chromedriver, so nothing is downloaded); and
where screenshots go (``$SUDOKU_BATCH_TEST_ARTIFACTS`` if set, else pytest's tmp path, under
``review-screenshots``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.settings import Settings
from sudoku_batch.store.db import transaction
from sudoku_batch.store.keys import create_key
from tests.integration.conftest import (
    RUN_ID,
    Service,
    free_port,
    image_worker,
    settings_env,
    wait_until,
)

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CLI = [sys.executable, "-m", "sudoku_batch.cli"]
# Bounds against a hang, not expectations.
START_LIMIT = 60.0
BATCH_LIMIT = 150.0
PAGE_LIMIT = 60.0


@dataclass
class Stack:
    settings: Settings
    url: str
    key: str
    services: list[Service]

    def logs(self) -> str:
        return "\n".join(f"--- {s.name} ---\n{s.log_tail()}" for s in self.services)


@pytest.fixture(scope="session")
def stack(
    make_settings: Callable[[str], Settings],
    sessions: sessionmaker[Session],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Stack]:
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("needs Debian's chromium and chromium-driver")
    settings = make_settings("review")
    env = {**settings_env(settings), "OMP_NUM_THREADS": "1"}
    logs = tmp_path_factory.mktemp("review-logs")
    port = free_port()
    with transaction(sessions) as db:
        key = create_key(db, f"reviewer-{RUN_ID}")
    services = []
    try:
        services.append(image_worker(f"review-{RUN_ID}@localhost", env, logs))
        services.append(Service("api", [*CLI, "api", f"--port={port}"], env, logs))
        stack = Stack(settings, f"http://127.0.0.1:{port}", key, services)
        wait_until(lambda: _healthy(stack), START_LIMIT, "the API and the broker")
        yield stack
    finally:
        for service in services:
            service.stop()


def _healthy(stack: Stack) -> bool:
    for service in stack.services:
        if not service.alive():
            pytest.fail(f"{service.name} exited early:\n{stack.logs()}")
    try:
        return httpx.get(f"{stack.url}/health", timeout=5).is_success
    except httpx.HTTPError:
        return False  # still starting


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("SUDOKU_BATCH_TEST_ARTIFACTS") or tmp_path) / "review-screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def chromium(script: bool = True):
    """Headless Chromium driven through Debian's chromedriver; ``script``: whether pages may
    run script."""
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--window-size=1280,1100"):
        options.add_argument(argument)
    if not script:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2}
        )
    # The driver's path given, Selenium Manager never looks for (or downloads) one.
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(CHROMEDRIVER))
    driver.implicitly_wait(0)
    return driver


@pytest.fixture
def browser() -> Iterator:
    driver = chromium()
    yield driver
    driver.quit()
