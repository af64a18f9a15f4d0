"""The same book as ``bench.throughput``, through the server: the API (in this process) and one
real Celery worker (prefork, ``--concurrency`` processes, every queue), on a fresh PostgreSQL
database and a Redis key prefix of its own, both removed afterwards.

    python -m bench.throughput_server [--pages 20] [--concurrency 2] [--embedded --rounds 3]

Prints wall time, grids/s, when the first and the half-way puzzle were finished (results
stream out while pages are still read when later stages go first), and the worker tree's CPU
seconds a grid (sampled from psutil just before the worker stops) and the CPU seconds of the
PostgreSQL backends serving it (the database's side of every round trip), to set beside
``bench.throughput``'s embedded figures. ``--embedded`` runs those too, on the same book, before
and after each of ``--rounds`` server runs, and prints each server run's wall and CPU over the
mean of the embedded runs on either side (CPU: worker tree, PostgreSQL and following the
batch, against the embedded run's whole process tree), then their medians.
``--profile FILE``: the worker runs in one process (solo pool) under cProfile, counting CPU
time, which writes FILE when the worker stops (``python -m pstats FILE``).
``--profile-main FILE``: the prefork worker as usual, its main process alone under cProfile
(receiving, dispatching, task events; the forked pool processes never write the profile).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psutil
from sqlalchemy import Engine, select

from bench.throughput import synthetic_book

ADMIN_URL = os.environ.get(
    "SUDOKU_BATCH_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("SUDOKU_BATCH_TEST_REDIS", "redis://127.0.0.1:6379/15")
REPO_ROOT = Path(__file__).resolve().parents[1]
# Celery's command line under cProfile counting CPU time, not wall time (a task's waits on the
# database and the broker are not what costs a core); the profile's file is the first argument.
PROFILED_CELERY = """
import cProfile, runpy, sys, time
profile, out = cProfile.Profile(time.process_time), sys.argv[1]
sys.argv = ["celery", *sys.argv[2:]]
profile.enable()
try:
    runpy.run_module("celery", run_name="__main__", alter_sys=True)
finally:
    profile.disable()
    profile.dump_stats(out)
"""


def tree_cpu(process: psutil.Process) -> float:
    total = 0.0
    for each in [process, *process.children(recursive=True)]:
        try:
            times = each.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
        except psutil.Error:
            pass
    return total


def database_cpu(name: str) -> float:
    """CPU seconds of the PostgreSQL server processes serving database ``name`` (their title
    names it), on this machine: the server's side of every round trip."""
    total = 0.0
    for process in psutil.process_iter(["cmdline"]):
        try:
            if any(f" {name} " in part for part in process.info["cmdline"] or ()):
                total += sum(process.cpu_times()[:2])
        except psutil.Error:
            pass
    return total


def worker_env(url: str, prefix: str, data_dir: Path, more: dict[str, str]) -> dict[str, str]:
    """The environment of a bench's workers: this run's database, Redis prefix and data
    folder, and ``more`` settings."""
    return {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "SUDOKU_BATCH_DATABASE_URL": url,
        "SUDOKU_BATCH_BROKER_URL": REDIS_URL,
        "SUDOKU_BATCH_REDIS_KEY_PREFIX": prefix,
        "SUDOKU_BATCH_DATA_DIR": str(data_dir),
        **more,
    }


def started_worker(engine: Engine, main: psutil.Process, timeout: float = 120.0) -> float:
    """Wait until the worker has started (its first heartbeat is in the database: its pool is
    forked and it consumes); the worker tree's CPU seconds so far, its start-up. A server is
    up before batches come, as the embedded runner's imports come before its count starts."""
    from sudoku_batch.store.models import WorkerHeartbeat

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with engine.connect() as connection:
            if connection.execute(select(WorkerHeartbeat.incarnation)).first() is not None:
                return tree_cpu(main)
        time.sleep(0.1)
    raise TimeoutError(f"the worker did not start within {timeout:.0f} s")


def run(
    pdf: Path,
    concurrency: int,
    data_dir: Path,
    profile: Path | None = None,
    profile_main: Path | None = None,
    store_env: dict[str, str] | None = None,
    wall_profile: bool = False,
) -> tuple[float, float, int]:
    """Run the book through the server and print its figures; (wall seconds, CPU seconds of
    the worker tree, PostgreSQL and following the batch, grids). ``store_env``: the variables
    of another store than the data folder (``SUDOKU_BATCH_STORAGE_URL``, ``AWS_*``), for the
    API and the worker; ``wall_profile``: ``profile`` counts wall time, not CPU time."""
    import psycopg
    import redis
    from fastapi.testclient import TestClient
    from sqlalchemy.engine import make_url

    from sudoku_batch.api.app import create_app
    from sudoku_batch.follow import FOLLOW_SECONDS, follow_batch
    from sudoku_batch.settings import Settings
    from sudoku_batch.store.db import make_engine, make_session_factory, transaction
    from sudoku_batch.store.keys import create_key
    from sudoku_batch.store.migrate import upgrade
    from sudoku_batch.store.progress import UNFINISHED_STATES

    name = f"sudoku_batch_bench_{uuid.uuid4().hex[:8]}"
    prefix = f"sudoku_batch_bench:{name}:"
    admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)
    admin.execute(f'CREATE DATABASE "{name}"')
    url = make_url(ADMIN_URL).set(database=name).render_as_string(False)
    worker = None
    try:
        upgrade(url)
        env = worker_env(url, prefix, data_dir, store_env or {})
        settings = Settings.from_env(env)
        argv = [sys.executable, "-m", "celery", "-A", "sudoku_batch.workers.app", "worker"]
        if profile is not None or profile_main is not None:
            profiled = PROFILED_CELERY.replace("time.process_time", "time.perf_counter")
            if not wall_profile:
                profiled = PROFILED_CELERY
            argv[1:3] = ["-c", profiled, str((profile or profile_main).resolve())]
        if profile is not None:
            argv.append("--pool=solo")
        else:
            argv.append(f"--concurrency={concurrency}")
        argv.append("--queues=ingest,rectify,ocr,solve")
        argv += [f"--hostname=bench-{name}@%h", "--loglevel=WARNING", "--without-mingle"]
        log = open(data_dir / "worker.log", "wb")  # noqa: SIM115 - closed with the worker
        worker = subprocess.Popen(argv, env=env, cwd=REPO_ROOT, stdout=log, stderr=log)
        engine = make_engine(url)
        with transaction(make_session_factory(engine)) as db:
            key = create_key(db, "bench")
        main = psutil.Process(worker.pid)
        start_up = started_worker(engine, main)
        engine.dispose()
        with TestClient(create_app(settings), headers={"Authorization": f"Bearer {key}"}) as api:
            started = time.perf_counter()
            sent = api.post("/batches", files=[("files", (pdf.name, pdf.read_bytes()))])
            sent.raise_for_status()
            batch = sent.json()["batch_id"]
            finished_at: list[float] = []  # seconds when each further puzzle was finished
            requests, polled = 0, -time.process_time()  # this process's CPU asking for status

            def ask(params: dict) -> dict:
                nonlocal requests
                requests += 1
                answer = api.get(f"/batches/{batch}", params=params)
                answer.raise_for_status()
                return answer.json()

            def seen(status: dict) -> None:
                puzzles = status["puzzles"]
                unfinished = UNFINISHED_STATES["puzzles"]
                done = sum(n for state, n in puzzles.items() if state not in unfinished)
                finished_at.extend([time.perf_counter() - started] * (done - len(finished_at)))

            # As `submit --wait` follows a batch (long polling, paced): what watching costs.
            status = follow_batch(ask, seen)
            wall = time.perf_counter() - started
            polled += time.process_time()
            database = database_cpu(name)  # while the API's and workers' connections are open
        cpu = tree_cpu(main) - start_up
        consumer = sum(main.cpu_times()[:2])  # receiving and dispatching, no task runs here
        grids = sum(status["puzzles"].values())
        print(f"server: grids {grids}  statuses {status['puzzles']}")
        print(
            f"wall {wall:.1f} s  grids/s {grids / wall:.2f}  (a worker of {concurrency} processes)"
        )
        print(
            f"worker tree CPU {cpu:.1f} s  CPU-s a grid {cpu / max(grids, 1):.3f}"
            f"  (of which the main process {consumer - start_up:.1f} s; before the batch,"
            f" starting, {start_up:.1f} s more)"
        )
        print(f"PostgreSQL backends of the batch's database CPU {database:.1f} s")
        print(
            f"status requests {requests} (as submit --wait: held until the batch moves, at most"
            f" one every {FOLLOW_SECONDS} s), this process's CPU {polled:.1f} s"
        )
        first, half = (finished_at or [wall])[0], (finished_at + [wall] * grids)[grids // 2]
        print(f"first puzzle finished after {first:.1f} s, half of them after {half:.1f} s")
        return wall, cpu + database + polled, grids
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=60)
        for stale in redis.Redis.from_url(REDIS_URL).scan_iter(match=f"{prefix}*"):
            redis.Redis.from_url(REDIS_URL).delete(stale)
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "sb-bench")
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="also run bench.throughput, before and after each server run, and print the ratios",
    )
    parser.add_argument("--rounds", type=int, default=1, help="server runs with --embedded")
    parser.add_argument("--profile", type=Path, help="profile a solo worker into this file")
    parser.add_argument(
        "--profile-main", type=Path, help="profile a prefork worker's main process into this file"
    )
    args = parser.parse_args()
    pdf = synthetic_book(args.cache, args.pages, args.seed, 200)
    if not args.embedded:
        with tempfile.TemporaryDirectory() as scratch:
            run(pdf, args.concurrency, Path(scratch), args.profile, args.profile_main)
        return

    def embedded() -> tuple[float, float]:
        # A process of its own each time: its coordinator's memory is its own, not this one's
        # after the server runs (the API and its client live here).
        print("-- embedded", flush=True)
        command = [sys.executable, "-m", "bench.throughput", "--pdf", str(pdf), "--dpi", "200"]
        command += ["--jobs", str(args.concurrency)]
        ran = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, check=True)
        print(ran.stdout, end="", flush=True)
        wall = re.search(r"^wall ([\d.]+) s", ran.stdout, re.MULTILINE)
        cpu = re.search(r"^CPU ([\d.]+) s", ran.stdout, re.MULTILINE)
        assert wall and cpu, ran.stdout
        return float(wall[1]), float(cpu[1])

    def server() -> tuple[float, float]:
        print("-- server")
        with tempfile.TemporaryDirectory() as scratch:
            return run(pdf, args.concurrency, Path(scratch), args.profile, args.profile_main)

    # Embedded, then each server run followed by another embedded one: each server run is set
    # against the mean of the embedded runs on either side, as this machine's speed drifts by
    # up to a quarter within minutes (docs/throughput.md).
    before, ratios = embedded(), []
    for _ in range(args.rounds):
        served, after = server(), embedded()
        wall, cpu = ((b + a) / 2 for b, a in zip(before, after, strict=True))
        ratios.append((served[0] / wall, served[1] / cpu))
        print(f"server / embedded: wall {ratios[-1][0]:.2f}  CPU {ratios[-1][1]:.2f}")
        before = after
    walls, cpus = sorted(r[0] for r in ratios), sorted(r[1] for r in ratios)
    print(
        f"server / embedded over {len(ratios)} rounds: wall {', '.join(f'{r:.2f}' for r in walls)}"
        f" (median {statistics.median(walls):.2f}); CPU {', '.join(f'{r:.2f}' for r in cpus)}"
        f" (median {statistics.median(cpus):.2f})"
    )


if __name__ == "__main__":
    main()
