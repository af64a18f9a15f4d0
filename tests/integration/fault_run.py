"""One batch through a real worker on a private Redis (and, for a database outage, a private
PostgreSQL cluster) that a fault test stops and starts (test_faults.py, test_outages.py). Each
test ends with every puzzle solved, none failed, no duplicate rows, and nothing stuck, within a
stated time.

The batch is 40 text files of one puzzle each, through the API, the ingest and the solve
queues of a real prefork worker whose solve step takes half a second
(``tests.integration.held_solve_worker``), so the batch takes long enough to be hit mid-way.
With ``SUDOKU_BATCH_FAULT_REPORT=FILE`` each test adds its row of the table in
docs/server.md to FILE.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory
from sudoku_batch.store.models import Batch, InputFile, Page, Puzzle, Solution
from tests.integration.conftest import Service, api_client, settings_env, wait_until
from tests.integration.services import PrivateRedis
from tests.integration.test_text_batches import SOLVABLE

INPUTS = 40
SOLVE_SECONDS = 0.5
STARTED = 5  # puzzles solved before the fault strikes: it hits a batch in full flow
# Short sweep deadlines, so a test waits seconds where a deployment waits a minute; the worker
# loss test keeps the defaults, to measure the time a real deployment takes.
FAST = {
    "sweep_seconds": 2.0,
    "lost_after": 5.0,
    "dead_after": 8.0,
    "reclaim_after": 30.0,
    "outage_backoff_max": 3.0,
}


DEFAULTS = {name: Settings.model_fields[name].default for name in FAST}


@dataclass
class Row:
    fault: str
    finished: int
    lost: int
    duplicated: int
    stuck: int
    seconds: float
    reruns: int  # solve runs beyond one per puzzle: work redone (killed mid-way, or sent twice)


class Run:
    """One batch on one set of services, with workers started and killed at will."""

    def __init__(self, settings: Settings, folder: Path):
        self.settings = settings
        self.folder = folder
        self.workers: list[Service] = []
        self.solves = folder / "solves"
        self.engine = make_engine(settings.database_url)
        self.sessions: sessionmaker[Session] = make_session_factory(self.engine)
        self.batch_id: int | None = None

    def start_worker(self, name: str) -> Service:
        worker = Service(
            name,
            [sys.executable, "-m", "tests.integration.held_solve_worker", "--notes",
             str(self.solves), "--seconds", str(SOLVE_SECONDS), "--pool=prefork",
             "--concurrency=2", "--queues=ingest,solve", f"--hostname={name}@faults",
             "--loglevel=INFO", "--without-mingle", "--without-gossip"],
            {**settings_env(self.settings), "OMP_NUM_THREADS": "1"},
            self.folder,
        )  # fmt: skip
        self.workers.append(worker)
        return worker

    def submit(self) -> dict:
        files = [("files", (f"p{i:02d}.txt", SOLVABLE.encode())) for i in range(INPUTS)]
        with api_client(self.settings) as client:
            answer = client.post("/text-batches", files=files, data={"label": "faults"})
        assert answer.status_code == 201, answer.text
        submitted = answer.json()
        with self.sessions() as db:
            self.batch_id = db.scalar(
                select(Batch.id).where(Batch.public_id == submitted["batch_id"])
            )
        return submitted

    def solved(self) -> int:
        with self.sessions() as db:
            return (
                db.scalar(
                    select(func.count()).where(
                        Puzzle.batch_id == self.batch_id, Puzzle.status == "solved"
                    )
                )
                or 0
            )

    def unfinished(self) -> int:
        with self.sessions() as db:
            return sum(
                db.scalar(select(func.count()).where(model.batch_id == self.batch_id, condition))
                or 0
                for model, condition in (
                    (InputFile, InputFile.status == "pending"),
                    (Page, Page.status == "pending"),
                    (Puzzle, Puzzle.status.in_(["pending", "read"])),
                )
            )

    def wait_for_flow(self) -> None:
        wait_until(lambda: self.solved() >= STARTED, 60, "the batch to get going", 0.2)

    def finish(self, fault: str, since: float, limit: float) -> Row:
        """Wait (up to ``limit`` seconds) for the batch to end; check and report it."""
        try:
            wait_until(lambda: self.unfinished() == 0, limit, f"the batch to end after {fault}")
        except pytest.fail.Exception:
            pytest.fail(f"{self.unfinished()} subjects stuck after {fault}:\n{self.logs()}")
        row = self.row(fault, time.monotonic() - since)
        report = os.environ.get("SUDOKU_BATCH_FAULT_REPORT")
        if report:
            with open(report, "a") as out:
                out.write(json.dumps(asdict(row)) + "\n")
        assert (row.finished, row.lost, row.duplicated, row.stuck) == (INPUTS, 0, 0, 0), (
            f"{row}\n{self.logs()}"
        )
        return row

    def row(self, fault: str, seconds: float) -> Row:
        with self.sessions() as db:
            batch = self.batch_id
            count = lambda query: db.scalar(query) or 0  # noqa: E731
            solved = count(
                select(func.count()).where(Puzzle.batch_id == batch, Puzzle.status == "solved")
            )
            failed = sum(
                count(select(func.count()).where(model.batch_id == batch, model.status == "failed"))
                for model in (InputFile, Page, Puzzle)
            )
            puzzles = count(select(func.count()).where(Puzzle.batch_id == batch))
            solutions = count(
                select(func.count())
                .select_from(Solution)
                .join(Puzzle)
                .where(Puzzle.batch_id == batch)
            )
            # One stage run per stage and subject: a second one is work recorded twice.
            twice = count(
                text(
                    "SELECT count(*) - count(DISTINCT (stage, input_file_id, page_id, puzzle_id))"
                    " FROM stage_runs WHERE batch_id = :batch"
                ).bindparams(batch=batch)
            )
        return Row(
            fault=fault,
            finished=solved,
            lost=failed + max(0, INPUTS - puzzles),
            duplicated=max(0, puzzles - INPUTS) + max(0, solutions - puzzles) + twice,
            stuck=self.unfinished(),
            seconds=round(seconds, 1),
            reruns=len(self.solves.read_text().split()) - INPUTS if self.solves.exists() else 0,
        )

    def logs(self) -> str:
        return "\n".join(f"--- {w.name} ---\n{w.log_tail(60)}" for w in self.workers)

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.engine.dispose()


@pytest.fixture
def redis_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path / "redis", persistent=getattr(request, "param", True))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def run_on(
    tmp_path: Path, make_settings: Callable[[str], Settings]
) -> Iterator[Callable[..., Run]]:
    runs: list[Run] = []

    def run(redis_url: str, database_url: str | None = None, **overrides: float) -> Run:
        settings = make_settings("faults").model_copy(
            update={
                "broker_url": redis_url,
                "redis_key_prefix": "",
                **({"database_url": database_url} if database_url else {}),
                **overrides,
            }
        )
        runs.append(Run(settings, tmp_path))
        return runs[-1]

    yield run
    for each in runs:
        each.close()
