"""A book of hard puzzles through the server with its workers split by stage or mixed.

    python -m bench.solve_workers [--layouts split,mixed] [--hard 7] [--easy-pages 4]

The book: one page per hard 25x25 (the minimal Gecode ones, which need Kissat: seconds each)
and pages of two 16x16s each, as PNG pages. Layouts, two single-process workers each:
``split`` one worker on ingest, rectify and OCR and one on solve alone; ``mixed`` two workers
on every queue. Prints per layout: wall time to the batch's end, when the last page was read
(its OCR done), the worker trees' CPU seconds, and where the solves ran (stage_runs.task).
Fresh PostgreSQL database and Redis key prefix per run, both removed afterwards.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import psutil
from sqlalchemy import func, select

from bench.shared_data import shared_data_dir
from bench.throughput_server import ADMIN_URL, REDIS_URL, REPO_ROOT, tree_cpu, worker_env
from sudoku_batch.pipeline.ingest.textpuzzle import is_puzzle_line, parse_puzzle_line
from sudoku_batch.synth.grid_image import render_grid

# Gecode's minimal 25x25s that Kissat settles within the solve timeout (bench.solve: the
# others of the set take from 10 s to past a minute).
HARD_LINES = (1, 2, 5, 6, 11, 12, 13)
QUEUES = {
    "split": ("ingest,rectify,ocr", "solve"),
    "mixed": ("ingest,rectify,ocr,solve", "ingest,rectify,ocr,solve"),
}
SOLVE_TIMEOUT = "30"


def book(folder: Path, hard: int, easy_pages: int) -> list[Path]:
    shared = shared_data_dir() / "puzzles"
    lines25 = [
        x for x in (shared / "gecode_25x25.txt").read_text().splitlines() if is_puzzle_line(x)
    ]
    lines16 = [
        x for x in (shared / "gecode_16x16.txt").read_text().splitlines() if is_puzzle_line(x)
    ]
    pages = []
    for n, line in enumerate(HARD_LINES[:hard]):
        grid = render_grid(parse_puzzle_line(lines25[line]).puzzle, cell_px=40, rng=_rng(n)).image
        pages.append(_page([grid]))
    for n in range(easy_pages):
        pair = lines16[2 * n : 2 * n + 2]
        grids = [
            render_grid(parse_puzzle_line(x).puzzle, cell_px=48, rng=_rng(100 + n)).image
            for x in pair
        ]
        pages.append(_page(grids))
    paths = []
    for n, pixels in enumerate(pages):
        paths.append(folder / f"page-{n:02}.png")
        cv2.imwrite(str(paths[-1]), pixels)
    return paths


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _page(grids: list[np.ndarray]) -> np.ndarray:
    margin = 100
    height = max(g.shape[0] for g in grids) + 2 * margin
    width = sum(g.shape[1] + margin for g in grids) + margin
    page = np.full((height, width, 3), 255, np.uint8)
    left = margin
    for grid in grids:
        page[margin : margin + grid.shape[0], left : left + grid.shape[1]] = grid
        left += grid.shape[1] + margin
    return page


def run(layout: str, pages: list[Path], data_dir: Path) -> None:
    import psycopg
    import redis
    from fastapi.testclient import TestClient
    from sqlalchemy.engine import make_url

    from sudoku_batch.api.app import create_app
    from sudoku_batch.follow import follow_batch
    from sudoku_batch.settings import Settings
    from sudoku_batch.store.db import make_engine, make_session_factory, transaction
    from sudoku_batch.store.keys import create_key
    from sudoku_batch.store.migrate import upgrade
    from sudoku_batch.store.models import Batch, StageRun, WorkerHeartbeat

    name = f"sudoku_batch_bench_{uuid.uuid4().hex[:8]}"
    prefix = f"sudoku_batch_bench:{name}:"
    admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)
    admin.execute(f'CREATE DATABASE "{name}"')
    url = make_url(ADMIN_URL).set(database=name).render_as_string(False)
    workers: list[subprocess.Popen] = []
    try:
        upgrade(url)
        settings = Settings(
            data_dir=data_dir, database_url=url, broker_url=REDIS_URL, redis_key_prefix=prefix
        )
        env = worker_env(url, prefix, data_dir, {"SUDOKU_BATCH_SOLVE_TIMEOUT": SOLVE_TIMEOUT})
        for number, queues in enumerate(QUEUES[layout]):
            argv = [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "sudoku_batch.workers.app",
                "worker",
                "--pool=solo",
            ]
            argv += [f"--queues={queues}", f"--hostname={layout}{number}-{name}@%h"]
            argv += ["--loglevel=WARNING", "--without-mingle", "--without-gossip"]
            log = open(data_dir / f"worker{number}.log", "wb")  # noqa: SIM115 - closed with it
            workers.append(subprocess.Popen(argv, env=env, cwd=REPO_ROOT, stdout=log, stderr=log))
        engine = make_engine(url)
        sessions = make_session_factory(engine)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            with sessions() as db:
                if db.scalar(select(func.count()).select_from(WorkerHeartbeat)) == len(workers):
                    break
            time.sleep(0.2)
        trees = [psutil.Process(worker.pid) for worker in workers]
        start_up = [tree_cpu(tree) for tree in trees]
        with transaction(sessions) as db:
            key = create_key(db, "bench")
        with TestClient(create_app(settings), headers={"Authorization": f"Bearer {key}"}) as api:
            started = time.perf_counter()
            files = [("files", (path.name, path.read_bytes())) for path in pages]
            sent = api.post("/batches", files=files)
            sent.raise_for_status()
            batch = sent.json()["batch_id"]

            def ask(params: dict) -> dict:
                answer = api.get(f"/batches/{batch}", params=params)
                answer.raise_for_status()
                return answer.json()

            status = follow_batch(ask, lambda _: None)
            wall = time.perf_counter() - started
        cpu = [tree_cpu(tree) - before for tree, before in zip(trees, start_up, strict=True)]
        with sessions() as db:
            created = db.scalars(select(Batch.created_at)).one()
            runs = db.scalars(select(StageRun)).all()
        engine.dispose()
        last_read = max(r.finished_at for r in runs if r.stage == "ocr")
        where = Counter(r.task for r in runs if r.stage == "solve")
        print(
            f"{layout:6} wall {wall:6.1f} s  last page read after"
            f" {(last_read - created).total_seconds():6.1f} s  worker CPU"
            f" {' + '.join(f'{c:.1f}' for c in cpu)} s  puzzles {status['puzzles']}"
            f"  solved in {dict(where)}",
            flush=True,
        )
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=60)
        client = redis.Redis.from_url(REDIS_URL)
        for stale in client.scan_iter(match=f"{prefix}*"):
            client.delete(stale)
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layouts", default="split,mixed")
    parser.add_argument("--hard", type=int, default=len(HARD_LINES))
    parser.add_argument("--easy-pages", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        pages = book(Path(scratch), args.hard, args.easy_pages)
        print(f"book: {args.hard} pages of a hard 25x25, {args.easy_pages} of two 16x16s")
        for layout in args.layouts.split(","):
            data_dir = Path(scratch) / f"data-{layout}"
            data_dir.mkdir()
            run(layout, pages, data_dir)


if __name__ == "__main__":
    main()
