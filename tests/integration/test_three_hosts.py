"""Three hosts that share no folder: the API and two Celery workers, each with its own data
folder, working folder and TMPDIR, sharing only PostgreSQL, a private Redis and an S3 store
(a real SeaweedFS). A batch of photos and a PDF ends solved, its board images, renders and
report served by the API from the store; then the store is stopped for 30 s in the middle of a
batch, and every puzzle still ends solved, none failed, none twice.

With ``SUDOKU_BATCH_STORAGE_REPORT=FILE`` each test adds its timing to FILE (docs/server.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session, sessionmaker

from bench.seaweedfs import SeaweedFS, free_ports
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory, transaction
from sudoku_batch.store.keys import create_key
from sudoku_batch.store.models import Batch, InputFile, Page, Puzzle, Solution, StageRun
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.pdf import write_jpeg_pdf
from sudoku_batch.synth.unique import unique_puzzle
from tests.integration.conftest import RUN_ID, Service, settings_env, wait_until
from tests.integration.services import PrivateRedis
from tests.seaweedfs import needs_weed

pytestmark = pytest.mark.services

CLI = [sys.executable, "-m", "sudoku_batch.cli"]
START_LIMIT = 120.0  # bounds against a hang, not expectations
BATCH_LIMIT = 600.0
OUTAGE_SECONDS = 30.0
WORKERS = ("host-b", "host-c")


@dataclass
class Host:
    """What one host has of its own: a data folder, a working folder and a TMPDIR."""

    name: str
    root: Path

    def __post_init__(self) -> None:
        for folder in (self.data_dir, self.work_dir, self.tmp_dir):
            folder.mkdir(parents=True)

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def work_dir(self) -> Path:
        return self.root / "work"

    @property
    def tmp_dir(self) -> Path:
        return self.root / "tmp"

    def env(self, settings: Settings) -> dict[str, str]:
        return {
            **settings_env(settings),
            "SUDOKU_BATCH_DATA_DIR": str(self.data_dir),
            "TMPDIR": str(self.tmp_dir),
            "OMP_NUM_THREADS": "1",
        }


@dataclass
class Cluster:
    settings: Settings
    store: SeaweedFS
    api: httpx.Client
    hosts: dict[str, Host]
    services: list[Service]
    sessions: sessionmaker[Session]

    def logs(self) -> str:
        return "\n".join(f"--- {s.name} ---\n{s.log_tail(30)}" for s in self.services)

    def ping(self, host: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*CLI, "worker", "--ping", f"--hostname={host}@three-hosts"],
            env=self.hosts[host].env(self.settings),
            cwd=self.hosts[host].work_dir,
            capture_output=True,
            text=True,
            timeout=60,
        )


def page_with(shape: GridShape, seed: int, givens: int) -> np.ndarray:
    generated = unique_puzzle(shape, np.random.default_rng(seed), givens=givens)
    grid = render_grid(generated.puzzle, cell_px=52, rng=np.random.default_rng(seed)).image
    page = np.full((grid.shape[0] + 300, grid.shape[1] + 240, 3), 255, np.uint8)
    page[150 : 150 + grid.shape[0], 120 : 120 + grid.shape[1]] = grid
    return page


def photos(seeds: range) -> list[tuple[str, bytes]]:
    return [
        (
            f"photo-{seed}.jpg",
            cv2.imencode(".jpg", page_with(GridShape(3, 3), seed, 30))[1].tobytes(),
        )
        for seed in seeds
    ]


def book(folder: Path, seeds: range) -> tuple[str, bytes]:
    pages = [
        page_with(GridShape(2, 3) if s % 2 else GridShape(3, 3), s, 16 if s % 2 else 30)
        for s in seeds
    ]
    jpegs = [
        (
            cv2.imencode(".jpg", p, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes(),
            p.shape[1],
            p.shape[0],
        )
        for p in pages
    ]
    path = folder / f"book-{seeds.start}.pdf"
    write_jpeg_pdf(path, jpegs, dpi=150)
    return path.name, path.read_bytes()


@pytest.fixture(scope="module")
def cluster(
    make_settings: Callable[[str], Settings], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Cluster]:
    needs_weed()
    root = tmp_path_factory.mktemp("three-hosts")
    store = SeaweedFS(root / "seaweedfs")
    store.start()
    redis_server = PrivateRedis(root / "redis", persistent=True, port=free_ports(1)[0])
    redis_server.start()
    settings = make_settings("three-hosts").model_copy(
        update={
            "broker_url": redis_server.url,
            "redis_key_prefix": "",
            "storage_url": store.storage_url(f"three-hosts-{RUN_ID}"),
            "aws_endpoint_url": store.endpoint,
            **{
                name.lower(): value
                for name, value in store.env().items()
                if name != "AWS_ENDPOINT_URL"
            },
            "outage_backoff_max": 3.0,
        }
    )
    hosts = {name: Host(name, root / name) for name in ("host-a", *WORKERS)}
    engine = make_engine(settings.database_url)
    sessions = make_session_factory(engine)
    with transaction(sessions) as db:
        key = create_key(db, f"three-hosts-{uuid.uuid4().hex[:8]}")
    (api_port,) = free_ports(1)
    services = [
        Service(
            "api",
            [*CLI, "api", "--host=127.0.0.1", f"--port={api_port}"],
            hosts["host-a"].env(settings),
            root,
            cwd=hosts["host-a"].work_dir,
        )
    ]
    for name in WORKERS:
        services.append(
            Service(
                name,
                [*CLI, "worker", "--pool=prefork", "--concurrency=1",
                 f"--hostname={name}@three-hosts"],
                hosts[name].env(settings),
                root,
                cwd=hosts[name].work_dir,
            )
        )  # fmt: skip
    api = httpx.Client(
        base_url=f"http://127.0.0.1:{api_port}",
        headers={"Authorization": f"Bearer {key}"},
        timeout=60,
    )
    made = Cluster(settings, store, api, hosts, services, sessions)
    try:
        wait_until(lambda: _up(made), START_LIMIT, "the API and both workers")
        yield made
    finally:
        api.close()
        for service in services:
            service.stop()
        redis_server.stop()
        store.stop()
        engine.dispose()


def _up(cluster: Cluster) -> bool:
    for service in cluster.services:
        if not service.alive():
            pytest.fail(f"{service.name} exited early:\n{cluster.logs()}")
    try:
        if not cluster.api.get("/health").is_success:
            return False
    except httpx.HTTPError:
        return False
    return all(cluster.ping(name).returncode == 0 for name in WORKERS)


def submit(cluster: Cluster, files: list[tuple[str, bytes]]) -> str:
    answer = cluster.api.post("/batches", files=[("files", each) for each in files])
    assert answer.status_code == 201, answer.text
    return answer.json()["batch_id"]


def finished(cluster: Cluster, batch_id: str) -> dict:
    def status() -> dict | None:
        answer = cluster.api.get(f"/batches/{batch_id}").json()
        return answer if answer["finished"] else None

    try:
        return wait_until(status, BATCH_LIMIT, f"batch {batch_id} to finish", 1.0)
    except pytest.fail.Exception:
        pytest.fail(f"batch {batch_id} did not finish:\n{cluster.logs()}")


def tally(cluster: Cluster, batch_id: str) -> dict[str, int]:
    with cluster.sessions() as db:
        batch = db.scalar(select(Batch.id).where(Batch.public_id == batch_id))
        count = lambda query: db.scalar(query) or 0  # noqa: E731
        puzzles = count(select(func.count()).where(Puzzle.batch_id == batch))
        return {
            "puzzles": puzzles,
            "solved": count(
                select(func.count()).where(Puzzle.batch_id == batch, Puzzle.status == "solved")
            ),
            "failed": sum(
                count(select(func.count()).where(model.batch_id == batch, model.status == "failed"))
                for model in (InputFile, Page, Puzzle)
            ),
            "solutions": count(
                select(func.count())
                .select_from(Solution)
                .join(Puzzle)
                .where(Puzzle.batch_id == batch)
            ),
            # One stage run per stage and subject: a second one is work recorded twice.
            "twice": count(
                text(
                    "SELECT count(*) - count(DISTINCT (stage, input_file_id, page_id, puzzle_id))"
                    " FROM stage_runs WHERE batch_id = :batch"
                ).bindparams(batch=batch)
            ),
        }


def report(test: str, seconds: float, **more: object) -> None:
    path = os.environ.get("SUDOKU_BATCH_STORAGE_REPORT")
    if path:
        with open(path, "a") as out:
            out.write(json.dumps({"test": test, "seconds": round(seconds, 1), **more}) + "\n")


def test_a_batch_on_three_hosts_sharing_no_folder_ends_solved_and_is_served(
    cluster: Cluster, tmp_path: Path
) -> None:
    started = time.monotonic()
    batch_id = submit(cluster, [*photos(range(1, 4)), book(tmp_path, range(10, 12))])
    status = finished(cluster, batch_id)
    seconds = time.monotonic() - started
    counts = tally(cluster, batch_id)
    assert counts == {"puzzles": 5, "solved": 5, "failed": 0, "solutions": 5, "twice": 0}, (
        f"{counts} {status}\n{cluster.logs()}"
    )
    records = cluster.api.get(f"/batches/{batch_id}/results").json()["items"]
    assert sorted(r["source"] for r in records) == [
        "book-10.pdf", "book-10.pdf", "photo-1.jpg", "photo-2.jpg", "photo-3.jpg",
    ]  # fmt: skip
    for record in records:
        board = cluster.api.get(f"/puzzles/{record['puzzle_id']}/board.png")
        render = cluster.api.get(record["render_path"])
        assert (board.status_code, board.headers["content-type"]) == (200, "image/png")
        assert (render.status_code, render.headers["content-type"]) == (200, "image/jpeg")
        for image in (board, render):
            assert (
                cv2.imdecode(np.frombuffer(image.content, np.uint8), cv2.IMREAD_UNCHANGED)
                is not None
            )
    book_report = cluster.api.get(f"/batches/{batch_id}/report.html")
    assert book_report.status_code == 200 and "photo-1.jpg" in book_report.text

    # Every file is in the store; no host's folder holds one, no row a host's path.
    with cluster.sessions() as db:
        batch = db.scalar(select(Batch.id).where(Batch.public_id == batch_id))
        stored = db.scalars(select(InputFile.stored_path).where(InputFile.batch_id == batch)).all()
        boards = db.scalars(select(Puzzle.board_image_path).where(Puzzle.batch_id == batch)).all()
        workers = db.scalars(
            select(StageRun.worker).where(StageRun.batch_id == batch, StageRun.worker.is_not(None))
        ).all()
    keys = set(cluster.store.keys(f"three-hosts-{RUN_ID}/"))
    for key in [*stored, *boards, *(r["render_path"] for r in records if False)]:
        assert not key.startswith("/") and f"three-hosts-{RUN_ID}/{key}" in keys
    assert sum("/renders/" in key for key in keys) == 5
    for host in cluster.hosts.values():
        assert not (host.data_dir / "batches").exists(), host.name
    # Both worker hosts took part.
    assert {worker.split("@")[0] for worker in workers} == set(WORKERS), workers
    report("three hosts", seconds, grids=5)


def test_the_store_stopped_mid_batch_loses_nothing(cluster: Cluster, tmp_path: Path) -> None:
    started = time.monotonic()
    batch_id = submit(cluster, [*photos(range(20, 26)), book(tmp_path, range(30, 34))])
    wait_until(
        lambda: 1 <= tally(cluster, batch_id)["solved"] < 10,
        BATCH_LIMIT,
        "the batch to get going",
        0.2,
    )
    cluster.store.stop()
    stopped = time.monotonic()
    try:
        health = cluster.api.get("/health")
        assert health.status_code == 503 and health.json()["storage"] is False
        pinged = cluster.ping(WORKERS[0])
        assert pinged.returncode == 1 and "cannot be reached" in pinged.stderr, pinged.stderr
        # An upload the store cannot take is refused whole (the client sends it again later).
        refused = cluster.api.post("/batches", files=[("files", photos(range(90, 91))[0])])
        assert refused.status_code == 503 and "cannot be reached" in refused.text, refused.text
        time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - stopped)))
    finally:
        cluster.store.start()
    status = finished(cluster, batch_id)
    seconds = time.monotonic() - started
    counts = tally(cluster, batch_id)
    assert counts == {"puzzles": 10, "solved": 10, "failed": 0, "solutions": 10, "twice": 0}, (
        f"{counts} {status}\n{cluster.logs()}"
    )
    assert cluster.api.get("/health").status_code == 200
    report("store stopped 30 s", seconds, grids=10)
