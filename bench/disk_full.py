"""A data folder that fills up mid-batch, through the API and one real Celery worker, run with
the code of any checkout (``--repo``, default this one), so a fix can be measured against the
code before it:

    python -m bench.disk_full [--repo /work/main] [--pages 10] [--hold 60]

The data folder is a tmpfs of its own (root is needed to mount it), filled to the last page once
the first puzzle is solved: the kernel's own ENOSPC. It stays full ``--hold`` seconds, during
which a one-file upload is tried, then is freed. Prints the batch's final counts (puzzles by
status, failures by code), and the upload's HTTP code, files it left under the data folder
and batches it left in the database, and ``/health`` while full. Needs the machine's PostgreSQL
and Redis; its database and Redis keys are its own, removed afterwards.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import psycopg
import redis
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from bench.throughput import synthetic_book

REPO_ROOT = Path(__file__).resolve().parents[1]
ADMIN_URL = os.environ.get(
    "SUDOKU_BATCH_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("SUDOKU_BATCH_TEST_REDIS", "redis://127.0.0.1:6379/15")
DISK = "64m"
SEED = 1  # bench.throughput's default book
CACHE = Path(tempfile.gettempdir()) / "sudoku-batch-bench"
PROBE = REPO_ROOT / "examples" / "photo.jpg"


def cli(repo: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "sudoku_batch.cli", *args],
        env=env,
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def fill(folder: Path) -> Path:
    """Write a file until the kernel says no space is left; the file, to free it later."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    chunk = b"\0" * 2**20
    try:
        while True:
            os.write(fd, chunk)
    except OSError as error:
        if error.errno != errno.ENOSPC:
            raise
    finally:
        os.close(fd)
    return filler


def files_under(folder: Path) -> set[Path]:
    return {path for path in folder.rglob("*") if not path.name.startswith(".partial-")}


def run(repo: Path, pages: int, hold: float, workdir: Path) -> dict:
    pdf = synthetic_book(CACHE, pages, seed=SEED, dpi=200)
    disk = workdir / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK}", "tmpfs", str(disk)], check=True)
    name = f"sudoku_batch_disk_{uuid.uuid4().hex[:8]}"
    prefix = f"sudoku_batch_bench:{name}:"
    admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)
    admin.execute(f'CREATE DATABASE "{name}"')
    url = make_url(ADMIN_URL).set(database=name).render_as_string(False)
    data = disk / "data"
    data.mkdir()
    port = 18000 + os.getpid() % 1000
    env = {
        **os.environ,
        "PYTHONPATH": str(repo),
        "SUDOKU_BATCH_DATABASE_URL": url,
        "SUDOKU_BATCH_BROKER_URL": REDIS_URL,
        "SUDOKU_BATCH_REDIS_KEY_PREFIX": prefix,
        "SUDOKU_BATCH_DATA_DIR": str(data),
        "SUDOKU_BATCH_OUTAGE_BACKOFF_MAX": "2",
        "OMP_NUM_THREADS": "1",
    }
    services: list[subprocess.Popen] = []
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        cli(repo, env, "migrate")
        key = cli(repo, env, "keys", "create", "bench")
        for argv, log in (
            ([sys.executable, "-m", "sudoku_batch.cli", "api", "--port", str(port)], "api.log"),
            (
                [sys.executable, "-m", "celery", "-A", "sudoku_batch.workers.app", "worker",
                 "--pool=solo", "--queues=ingest,rectify,ocr,solve", f"--hostname=disk-{name}@%h",
                 "--without-mingle", "--without-gossip"],
                "worker.log",
            ),
        ):  # fmt: skip
            out = open(workdir / log, "wb")  # noqa: SIM115 - lives as long as the service
            services.append(subprocess.Popen(argv, env=env, cwd=repo, stdout=out, stderr=out))
        api = httpx.Client(
            base_url=f"http://127.0.0.1:{port}",
            headers={"Authorization": f"Bearer {key}"},
            timeout=60,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                api.get("/health")
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        sent = api.post("/batches", files=[("files", (pdf.name, pdf.read_bytes()))])
        sent.raise_for_status()

        def count(sql: str) -> int:
            with engine.connect() as db:
                return db.scalar(text(sql)) or 0

        deadline = time.monotonic() + 300
        while count("SELECT count(*) FROM puzzles WHERE status = 'solved'") < 1:
            if time.monotonic() > deadline:
                raise TimeoutError("no puzzle solved in 300 s")
            time.sleep(0.2)
        filler = fill(disk)
        time.sleep(hold / 2)
        batches_before = count("SELECT count(*) FROM batches")
        before = files_under(data)
        upload = api.post("/batches", files=[("files", (PROBE.name, PROBE.read_bytes()))])
        # A new connection: after a 500 the server may close the one the upload used.
        health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=60)
        probe = {
            "upload_http": upload.status_code,
            "upload_answer": upload.text[:160],
            "paths_left": sorted(str(p.relative_to(data)) for p in files_under(data) - before),
            "batches_left": count("SELECT count(*) FROM batches") - batches_before,
            "health_http_while_full": health.status_code,
            "health_while_full": health.json(),
        }
        time.sleep(hold / 2)
        filler.unlink()
        unfinished = (
            "SELECT (SELECT count(*) FROM input_files WHERE status = 'pending')"
            " + (SELECT count(*) FROM pages WHERE status = 'pending')"
            " + (SELECT count(*) FROM puzzles WHERE status IN ('pending', 'read'))"
        )
        deadline = time.monotonic() + 300
        while count(unfinished) and time.monotonic() < deadline:
            time.sleep(1)
        with engine.connect() as db:
            statuses = Counter(
                dict(db.execute(text("SELECT status, count(*) FROM puzzles GROUP BY status")).all())
            )
            failures = Counter(
                dict(
                    db.execute(
                        text(
                            "SELECT error_code, count(*) FROM ("
                            " SELECT error_code FROM input_files WHERE status = 'failed'"
                            " UNION ALL SELECT error_code FROM pages WHERE status = 'failed'"
                            " UNION ALL SELECT error_code FROM puzzles WHERE status = 'failed'"
                            ") f GROUP BY error_code"
                        )
                    ).all()
                )
            )
            example = db.scalar(
                text("SELECT message FROM pages WHERE status = 'failed' ORDER BY id LIMIT 1")
            )
        return {
            "repo": str(repo),
            "puzzles": dict(statuses),
            "failures": dict(failures),
            "page_failure_example": example,
            # Written aside and never renamed or removed: space lost for good.
            "partial_files_left": sum(1 for _ in data.rglob(".partial-*")),
            "unfinished": count(unfinished),
            **probe,
        }
    finally:
        for service in services:
            service.terminate()
            try:
                service.wait(timeout=30)
            except subprocess.TimeoutExpired:
                service.kill()
        engine.dispose()
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        client = redis.Redis.from_url(REDIS_URL)
        for key_name in client.scan_iter(match=f"{prefix}*"):
            client.delete(key_name)
        subprocess.run(["umount", "--lazy", str(disk)], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=REPO_ROOT)
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--hold", type=float, default=60.0, help="seconds the disk stays full")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        print(json.dumps(run(args.repo.resolve(), args.pages, args.hold, Path(workdir)), indent=1))


if __name__ == "__main__":
    main()
