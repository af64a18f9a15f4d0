"""Hard 25x25s through a real Celery worker (issue 33): each puzzle's solve task ends within
its solve timeout plus the allowance, with a rating or the reason for none, where the rater
used to hold the worker for minutes."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select

from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory
from sudoku_batch.store.models import Batch, Puzzle, StageRun
from tests.integration.conftest import (
    Service,
    api_client,
    celery_argv,
    settings_env,
    wait_until,
)
from tests.test_grid_allowance import (
    LINES,
    PER_GRID,
    TIMEOUT,
    check_grid_ended_in_time,
    hard_25x25s,
)

pytestmark = pytest.mark.services


def test_a_worker_ends_every_hard_25x25_within_its_timeout_and_allowance(
    make_settings: Callable[[str], Settings], tmp_path: Path, shared_data: Path
) -> None:
    puzzles = hard_25x25s(shared_data).encode()
    settings = make_settings("allowance")
    env = {**settings_env(settings), "SUDOKU_BATCH_SOLVE_TIMEOUT": str(TIMEOUT)}
    worker = Service(
        "worker",
        celery_argv(
            "worker", "--pool=solo", "--queues=ingest,solve", "--hostname=allowance@test",
            "--loglevel=INFO", "--without-mingle",
        ),
        env,
        tmp_path,
    )  # fmt: skip
    engine = make_engine(settings.database_url)
    sessions = make_session_factory(engine)
    try:
        with api_client(settings) as client:
            answer = client.post("/text-batches", files=[("files", ("hard.txt", puzzles))])
        assert answer.status_code == 201, answer.text
        public_id = answer.json()["batch_id"]
        started = time.monotonic()

        def finished() -> list[tuple[Puzzle, StageRun]] | None:
            with sessions() as db:
                batch = db.scalars(select(Batch).where(Batch.public_id == public_id)).one()
                rows = db.execute(
                    select(Puzzle, StageRun)
                    .join(StageRun, (StageRun.puzzle_id == Puzzle.id) & (StageRun.stage == "solve"))
                    .where(Puzzle.batch_id == batch.id)
                ).all()
            return rows if len(rows) == LINES else None

        rows = wait_until(finished, 2 * LINES * PER_GRID + 120, "every puzzle's solve task", 1.0)
        assert worker.alive(), worker.log_tail()
        assert time.monotonic() - started < 2 * LINES * PER_GRID + 120
        for puzzle, run in rows:
            check_grid_ended_in_time(
                puzzle.status, run.seconds, puzzle.rating, puzzle.message or puzzle.rating_reason
            )
    finally:
        worker.stop()
        engine.dispose()
