"""Faults of the data folder are the deployment's, never an input's: a full disk, a read-only or
missing folder, or a worker whose folder is not the API's. Tasks wait them out (retried as in a
database outage) and every puzzle is solved once the fault is fixed; an upload that cannot be
stored answers 507 or 503 and keeps nothing; ``/health`` and ``worker --ping`` say what is wrong.

The full disk is real: the data folder is a small tmpfs of its own, filled to the last page, so
the kernel answers ENOSPC (mounting needs root, as on the CI machine).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.settings import Settings
from sudoku_batch.store.data_folder import MARKER
from sudoku_batch.store.models import Batch, InputFile, Page, Puzzle
from tests.integration.conftest import (
    Service,
    api_client,
    image_worker,
    settings_env,
    wait_until,
)
from tests.integration.test_end_to_end import page_of
from tests.integration.test_text_batches import SOLVABLE
from tests.small_disk import fill, remount, small_disk

pytestmark = pytest.mark.services

PAGES = 10
DISK = "24m"
FULL_FOR_RETRIES = 3  # storage retries seen in the worker's log before space is freed
# Bounds against a hang, not expectations.
FLOW_LIMIT = 180.0
BATCH_LIMIT = 300.0
PING = [sys.executable, "-m", "sudoku_batch.cli", "worker", "--ping"]


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    with small_disk(tmp_path / "disk", DISK) as folder:
        yield folder


def counts(sessions: sessionmaker[Session], batch_id: int) -> dict[str, int]:
    with sessions() as db:
        solved = db.scalar(
            select(func.count()).where(Puzzle.batch_id == batch_id, Puzzle.status == "solved")
        )
        failed = sum(
            db.scalar(
                select(func.count()).where(model.batch_id == batch_id, model.status == "failed")
            )
            or 0
            for model in (InputFile, Page, Puzzle)
        )
        unfinished = sum(
            db.scalar(select(func.count()).where(model.batch_id == batch_id, condition)) or 0
            for model, condition in (
                (InputFile, InputFile.status == "pending"),
                (Page, Page.status == "pending"),
                (Puzzle, Puzzle.status.in_(["pending", "read"])),
            )
        )
    return {"solved": solved or 0, "failed": failed, "unfinished": unfinished}


def batch_of(sessions: sessionmaker[Session], public_id: str) -> int:
    with sessions() as db:
        found = db.scalar(select(Batch.id).where(Batch.public_id == public_id))
    assert found is not None
    return found


def stored_files(data_dir: Path) -> set[str]:
    """Every file under the data folder's batches, but a worker's write in progress."""
    return {
        str(path.relative_to(data_dir))
        for path in (data_dir / "batches").rglob("*")
        if not path.name.startswith(".partial-")
    }


def ping(settings: Settings, hostname: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*PING, f"--hostname={hostname}"],
        env=settings_env(settings),
        capture_output=True,
        text=True,
        timeout=120,
    )


def storage_retries(worker: Service, error: str) -> int:
    """The worker's task retries on ``error`` so far, by its log."""
    lines = worker.log_path.read_text(errors="replace").splitlines()
    return sum(error in line and "Retry in" in line for line in lines)


@pytest.fixture
def disk_settings(disk: Path, make_settings: Callable[[str], Settings]) -> Settings:
    return make_settings("disk").model_copy(
        update={"data_dir": disk / "data", "outage_backoff_max": 2.0}
    )


def test_a_full_disk_mid_batch_fails_no_input_and_every_page_is_solved_once_freed(
    disk_settings: Settings, disk: Path, sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    settings = disk_settings
    hostname = f"disk-{os.getpid()}@localhost"
    files = [("files", (f"p{i:02d}.png", page_of_index(i))) for i in range(PAGES)]
    with api_client(settings) as api:
        answer = api.post("/batches", files=files, data={"label": "disk full"})
        assert answer.status_code == 201, answer.text
        batch_id = batch_of(sessions, answer.json()["batch_id"])
        worker = image_worker(
            hostname, {**settings_env(settings), "OMP_NUM_THREADS": "1"}, tmp_path
        )
        try:
            wait_until(
                lambda: counts(sessions, batch_id)["solved"] >= 1, FLOW_LIMIT, "the first page"
            )
            filler = fill(disk)
            # The batch's pages now hit ENOSPC as they store their boards: each is retried.
            wait_until(
                lambda: storage_retries(worker, "StorageFull") >= FULL_FOR_RETRIES,
                FLOW_LIMIT,
                f"the worker to retry on a full disk:\n{worker.log_tail()}",
            )
            mid = counts(sessions, batch_id)
            assert mid["failed"] == 0 and mid["unfinished"] > 0, mid

            # Health and ping say why; an upload keeps nothing and answers 507.
            health = api.get("/health")
            assert health.status_code == 503
            assert health.json()["storage"] is False
            assert "no space left" in health.json()["problem"]
            pinged = ping(settings, hostname)
            assert pinged.returncode == 1 and "no space left" in pinged.stderr, pinged.stderr
            with sessions() as db:
                batches_before = db.scalar(select(func.count()).select_from(Batch))
            files_before = stored_files(settings.data_dir)
            refused = api.post(
                "/batches",
                files=[("files", ("more.png", page_of_index(0))), ("files", ("b.png", b"x"))],
            )
            assert refused.status_code == 507, refused.text
            assert "no space left" in refused.json()["detail"]
            with sessions() as db:
                assert db.scalar(select(func.count()).select_from(Batch)) == batches_before
            assert stored_files(settings.data_dir) == files_before

            filler.unlink()
            wait_until(
                lambda: counts(sessions, batch_id)["unfinished"] == 0,
                BATCH_LIMIT,
                f"the batch to end once space was freed:\n{worker.log_tail()}",
            )
            assert counts(sessions, batch_id) == {"solved": PAGES, "failed": 0, "unfinished": 0}
            assert api.get("/health").json() == {
                "database": True,
                "broker": True,
                "storage": True,
                "problem": None,
            }
            assert ping(settings, hostname).returncode == 0
        finally:
            worker.stop()


def page_of_index(index: int) -> bytes:
    """A page with a puzzle of its own (every page a different grid)."""
    import numpy as np

    from sudoku_batch.pipeline.grid import GridShape
    from sudoku_batch.synth.unique import unique_puzzle

    rng = np.random.default_rng(100 + index)
    return page_of(unique_puzzle(GridShape(3, 3), rng, givens=32).puzzle)


def test_health_and_ping_report_a_read_only_or_missing_data_folder(
    disk_settings: Settings, disk: Path
) -> None:
    settings = disk_settings
    nobody = f"nobody-{os.getpid()}@localhost"  # no worker: the folder is checked first
    with api_client(settings) as api:
        assert (settings.data_dir / MARKER).is_file()  # made and marked by the API at start
        remount(disk, "ro")
        try:
            health = api.get("/health")
            assert health.status_code == 503
            assert "read-only" in health.json()["problem"].lower(), health.json()
            pinged = ping(settings, nobody)
            assert pinged.returncode == 1 and "read-only" in pinged.stderr.lower(), pinged.stderr
            refused = api.post("/text-batches", files=[("files", ("a.txt", SOLVABLE.encode()))])
            assert refused.status_code == 503, refused.text
            assert "read-only" in refused.json()["detail"].lower()
        finally:
            remount(disk, "rw")
        shutil.rmtree(settings.data_dir)
        health = api.get("/health")
        assert health.status_code == 503
        assert "is missing" in health.json()["problem"]
        pinged = ping(settings, nobody)
        assert pinged.returncode == 1 and "is missing" in pinged.stderr, pinged.stderr


def test_a_worker_whose_data_folder_is_not_the_apis_fails_no_input(
    make_settings: Callable[[str], Settings], sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    settings = make_settings("apifolder").model_copy(update={"outage_backoff_max": 2.0})
    elsewhere = settings.model_copy(update={"data_dir": tmp_path / "elsewhere"})
    elsewhere.data_dir.mkdir()  # a second host's empty folder, or another start directory's
    hostname = f"elsewhere-{os.getpid()}@localhost"
    texts = [("files", (f"t{i}.txt", SOLVABLE.encode())) for i in range(3)]
    with api_client(settings) as api:
        answer = api.post("/text-batches", files=texts)
        assert answer.status_code == 201, answer.text
    batch_id = batch_of(sessions, answer.json()["batch_id"])
    worker = image_worker(hostname, {**settings_env(elsewhere), "OMP_NUM_THREADS": "1"}, tmp_path)
    try:
        wait_until(
            lambda: storage_retries(worker, "StorageUnavailable") >= len(texts),
            FLOW_LIMIT,
            f"the worker to retry the missing uploads:\n{worker.log_tail()}",
        )
        assert "SUDOKU_BATCH_DATA_DIR" in worker.log_tail(200)
        assert counts(sessions, batch_id)["failed"] == 0
        pinged = ping(elsewhere, hostname)
        assert pinged.returncode == 1 and "not the API's" in pinged.stderr, pinged.stderr
        # The deployment fixed (the shared folder mounted): the inputs go through.
        shutil.copytree(settings.data_dir, elsewhere.data_dir, dirs_exist_ok=True)
        wait_until(
            lambda: counts(sessions, batch_id)["unfinished"] == 0,
            BATCH_LIMIT,
            f"the batch to end:\n{worker.log_tail()}",
        )
        assert counts(sessions, batch_id) == {"solved": len(texts), "failed": 0, "unfinished": 0}
    finally:
        worker.stop()
