"""How much each stage task asks of PostgreSQL: a page of two 9x9 grids through every stage
task, run eagerly in this process on the test database, with every SQL statement and every
transaction counted through SQLAlchemy events, per task. Round trips, not time, are what the
server pays over the embedded runner (docs/throughput.md, "Third session"), so the bounds are
on them and fail if a task goes back to a transaction per store call."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import pytest
from sqlalchemy import Engine, event
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.jobs.table import Step
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import transaction
from sudoku_batch.store.handover import solve_again
from sudoku_batch.store.models import Puzzle, PuzzleStatus
from sudoku_batch.store.record import add_input_file, create_batch
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.unique import unique_puzzle
from sudoku_batch.workers import publish, runtime
from sudoku_batch.workers.app import app
from sudoku_batch.workers.tasks import ingest, ocr, rectify, solve  # noqa: F401 - registers the tasks

pytestmark = pytest.mark.services

# Per task, at most (each task's count when this was written; before, the same page took
# 12, 26, 18 and 17 statements in 5, 6, 5 and 3 transactions: docs/throughput.md). A page's
# boards are recorded in the same statements however many they are. One OCR task reads the
# page's two boards and solves what it read: 12 statements in one transaction (a claim and its
# labels, each board's cells, then one lock and seven writes for both boards), where two OCR
# tasks took 11 each, and an OCR task and a solve task a board 10 + 8 in 2.
MOST_STATEMENTS = {Step.INGEST: 10, Step.RECTIFY: 11, Step.OCR: 12, Step.SOLVE: 8}
MOST_TRANSACTIONS = {Step.INGEST: 2, Step.RECTIFY: 1, Step.OCR: 1, Step.SOLVE: 1}


@dataclass
class Tally:
    statements: int = 0
    transactions: int = 0
    pings: int = 0
    sql: list[str] = field(default_factory=list)


def page_of_two_grids() -> np.ndarray:
    page = np.full((1400, 1000, 3), 255, np.uint8)
    for number, top in enumerate((100, 760)):
        generated = unique_puzzle(GridShape(3, 3), np.random.default_rng(number), givens=30)
        grid = render_grid(generated.puzzle, cell_px=56, rng=np.random.default_rng(number)).image
        page[top : top + grid.shape[0], 120 : 120 + grid.shape[1]] = grid
    return page


def page_to_ingest(
    settings: Settings, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, deque[tuple[str, Any]]]:
    """A batch of one page of two grids, its ingest message waiting: its id, and the messages
    (step, the task's argument: a subject id, or a list of them for a listed step), to which
    every stage task run in this process now sends, not Redis."""
    stored = "uploads/two-grids.png"
    path = settings.data_dir / stored
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), page_of_two_grids())
    with transaction(sessions) as db:
        batch_id = create_batch(db, "two grids")
        input_file_id = add_input_file(db, batch_id, "two-grids.png", stored)
    messages: deque[tuple[str, Any]] = deque([(Step.INGEST, input_file_id)])

    def sent(_queue: object, message: list[publish.Handoff]) -> None:
        messages.append((message[0].step, publish.task_args(message)[0]))

    monkeypatch.setattr(publish, "send", sent)
    return batch_id, messages


@dataclass
class Tallies:
    """Counts of whatever runs on any engine (the workers' own, however many), kept under
    the name of what runs now (``current``)."""

    current: str = "setup"
    by_name: dict[str, Tally] = field(default_factory=dict)

    def now(self) -> Tally:
        return self.by_name.setdefault(self.current, Tally())


@pytest.fixture
def tallies(worker_runtime: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Tallies]:
    found = Tallies()

    def statement(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        found.now().statements += 1
        found.now().sql.append(sql.split("\n")[0][:90])

    def begun(conn: Any) -> None:
        # An autocommit connection's "begin" sends nothing (store.db.autocommit).
        if conn.get_execution_options().get("isolation_level") != "AUTOCOMMIT":
            found.now().transactions += 1

    dialect = type(runtime.database().dialect)
    ping = dialect.do_ping

    def pinged(self: Any, dbapi_connection: Any) -> bool:
        found.now().pings += 1
        return ping(self, dbapi_connection)

    monkeypatch.setattr(dialect, "do_ping", pinged)
    event.listen(Engine, "before_cursor_execute", statement)
    event.listen(Engine, "begin", begun)
    yield found
    event.remove(Engine, "before_cursor_execute", statement)
    event.remove(Engine, "begin", begun)


def test_each_stage_task_asks_postgres_a_bounded_number_of_statements(
    worker_runtime: Settings,
    sessions: sessionmaker[Session],
    tallies: Tallies,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    batch_id, messages = page_to_ingest(worker_runtime, sessions, monkeypatch)
    per_step: dict[str, list[Tally]] = {}

    def run_all() -> None:
        while messages:
            step, subject = messages.popleft()
            tallies.current = f"{step} {subject}"
            app.tasks[str(step)].apply(args=[subject])
            per_step.setdefault(step, []).append(tallies.now())
        tallies.current = "checks"

    run_all()
    assert ran_and_solved(sessions, batch_id, per_step) == {
        Step.INGEST: 1,
        Step.RECTIFY: 1,
        Step.OCR: 1,  # the page's two boards in one task, which solves what it read
    }
    # The solve task on its own, as after a correction.
    with transaction(sessions) as db:
        for puzzle in db.query(Puzzle).filter_by(batch_id=batch_id):
            solve_again(db, puzzle)
            messages.append((Step.SOLVE, puzzle.id))
    run_all()
    assert ran_and_solved(sessions, batch_id, per_step)[Step.SOLVE] == 2
    counted = {
        step: [(tally.statements, tally.transactions, tally.pings) for tally in runs]
        for step, runs in per_step.items()
    }
    print("statements, transactions, pings per task:", counted)
    for step, runs in per_step.items():
        for tally in runs:
            assert tally.statements <= MOST_STATEMENTS[step], (step, tally.sql)
            assert tally.transactions <= MOST_TRANSACTIONS[step], (step, tally.sql)


def ran_and_solved(
    sessions: sessionmaker[Session], batch_id: int, per_step: dict[str, list[Tally]]
) -> Counter[str]:
    """How many tasks of each step ran, once every puzzle of the batch is solved."""
    with sessions() as db:
        statuses = {p.status for p in db.query(Puzzle).filter_by(batch_id=batch_id)}
    assert statuses == {PuzzleStatus.SOLVED}
    return Counter({step: len(runs) for step, runs in per_step.items()})
