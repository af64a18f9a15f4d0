"""Following a batch: the progress token, ``GET /batches/{id}?since=&wait=`` (long polling) and
``submit --wait`` against the real API, on the test database. Work is moved by writing the
rows a worker would write, from another thread while a request is held."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy.exc
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, delete, event, select
from sqlalchemy.orm import Session, sessionmaker

import sudoku_batch.api.app as api_app
import sudoku_batch.api.batch_status as batch_status
from sudoku_batch.commands.submit import wait_for
from sudoku_batch.pipeline.errors import NoGridFound
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory, normalise_url, transaction
from sudoku_batch.store.models import (
    Base,
    Batch,
    InputFile,
    Page,
    PageStatus,
    Puzzle,
    StageRun,
    utc_now,
)
from sudoku_batch.store.progress import run_states, stage_progress, subject_states
from sudoku_batch.store.progress_token import batch_progress, progress_of
from sudoku_batch.store.record import Stage, add_input_file, create_batch, record_failure
from sudoku_batch.store.results import state_counts
from tests.integration.conftest import api_client
from tests.integration.test_api import PNG, submit

pytestmark = pytest.mark.services

# The label of every batch these tests make, so they can all be removed at the end.
LABEL = "test_batch_following"


@pytest.fixture(scope="module", autouse=True)
def no_work_left_behind(sessions: sessionmaker[Session]) -> Iterator[None]:
    """These tests write subjects waiting for a stage that no message was sent for; a later
    module's worker on the same database would find them and send them (its recovery sweep), so
    they are removed at the end, with all that hangs on their batches."""
    yield
    with transaction(sessions) as db:
        db.execute(delete(Batch).where(Batch.label == LABEL))


@pytest.fixture(scope="module")
def settings(make_settings: Callable[[str], Settings]) -> Settings:
    return make_settings("following")


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def new_batch(
    client: TestClient, sessions: sessionmaker[Session], files: int = 1
) -> tuple[str, int]:
    """A submitted batch of ``files`` inputs: its public id and its row id."""
    public_id = submit(client, *[(f"{n}.png", PNG) for n in range(files)], label=LABEL)["batch_id"]
    with sessions() as db:
        return public_id, db.scalars(select(Batch.id).where(Batch.public_id == public_id)).one()


def batch_seen(client: TestClient, sessions: sessionmaker[Session]) -> tuple[str, int, str]:
    """A new batch: its status URL, its row id, and the progress token of a first answer."""
    public_id, batch_id = new_batch(client, sessions)
    url = f"/batches/{public_id}"
    return url, batch_id, client.get(url).json()["progress"]


def list_pages(sessions: sessionmaker[Session], batch_id: int, pages: int = 2) -> list[int]:
    """What an ingest task does to the batch's first pending input: its pages, pending."""
    with transaction(sessions) as db:
        input_file = db.scalars(
            select(InputFile).where(InputFile.batch_id == batch_id, InputFile.status == "pending")
        ).first()
        assert input_file is not None
        rows = [
            Page(
                batch_id=batch_id,
                input_file_id=input_file.id,
                source=input_file.name,
                page_number=n + 1,
                format="image",
            )  # fmt: skip
            for n in range(pages)
        ]
        db.add_all(rows)
        input_file.status = "expanded"
        db.flush()
        return [row.id for row in rows]


def finish_page(sessions: sessionmaker[Session], page_id: int) -> None:
    """What a rectify task records for a page without a grid: its status and a stage run."""
    with transaction(sessions) as db:
        record_failure(db, NoGridFound("no grid"), Stage.RECTIFY, page_id=page_id)


def tokens(sessions: sessionmaker[Session], batch_id: int) -> str:
    """The batch's token by the cheap statement, checked against the full answer's."""
    with sessions() as db:
        cheap = batch_progress(db, batch_id)
        full = progress_of(subject_states(db, batch_id), run_states(db, batch_id))
    assert cheap == full
    return cheap.token


@pytest.fixture(params=["postgresql", "sqlite"])
def any_sessions(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sessionmaker]:
    """Sessions of the test PostgreSQL database, or of a new SQLite one (embedded runs)."""
    if request.param == "postgresql":
        yield request.getfixturevalue("sessions")
        return
    engine = make_engine(f"sqlite:///{tmp_path / 'run.sqlite'}")
    Base.metadata.create_all(engine)
    yield make_session_factory(engine)
    engine.dispose()


def test_the_token_moves_with_the_work_and_only_then(any_sessions: sessionmaker[Session]) -> None:
    with transaction(any_sessions) as db:
        batch_id = create_batch(db, LABEL)
        input_id = add_input_file(db, batch_id, "book.pdf", f"uploads/{uuid.uuid4()}.pdf")
    seen = [tokens(any_sessions, batch_id)]
    # A worker taking the input (queued to running) is not the batch's work moving.
    with transaction(any_sessions) as db:
        taken = db.get_one(InputFile, input_id)
        taken.started_at, taken.claimed_by = utc_now(), "a worker"
    assert tokens(any_sessions, batch_id) == seen[-1]

    page_ids = list_pages(any_sessions, batch_id)  # items found, the input done
    seen.append(tokens(any_sessions, batch_id))
    finish_page(any_sessions, page_ids[0])
    seen.append(tokens(any_sessions, batch_id))
    time.sleep(0.01)
    finish_page(any_sessions, page_ids[0])  # the same run again: its row replaced, same counts
    seen.append(tokens(any_sessions, batch_id))
    assert tokens(any_sessions, batch_id) == seen[-1]
    finish_page(any_sessions, page_ids[1])
    seen.append(tokens(any_sessions, batch_id))
    assert len(set(seen)) == len(seen), seen
    with any_sessions() as db:
        assert batch_progress(db, batch_id).finished


def get_timed(client: TestClient, url: str, **params: Any) -> tuple[float, Any]:
    started = time.monotonic()
    response = client.get(url, params=params)
    return time.monotonic() - started, response


class ServerClock:
    """``time.monotonic`` and ``asyncio.sleep`` for ``api.batch_status``: a sleep moves the
    clock on (and lets the event loop run), and each check of the batch is counted. ``move``
    is done to the batch once the clock reaches ``move_at``, before that check."""

    def __init__(
        self,
        monkeypatch: pytest.MonkeyPatch,
        move_at: float | None = None,
        move: Callable[[], object] | None = None,
    ) -> None:
        self.now = 0.0
        self.checks: list[float] = []  # when each check after the first one was made
        check = batch_status._progress

        def counted(sessions: sessionmaker[Session], batch_id: int) -> Any:
            nonlocal move
            if move is not None and move_at is not None and self.now >= move_at:
                move, moved = None, move
                moved()
            self.checks.append(self.now)
            return check(sessions, batch_id)

        monkeypatch.setattr(batch_status, "time", self)
        monkeypatch.setattr(batch_status, "asyncio", self)
        monkeypatch.setattr(batch_status, "_progress", counted)

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


def test_a_held_request_answers_when_the_wait_is_over_if_nothing_moves(
    client: TestClient, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _, token = batch_seen(client, sessions)
    clock = ServerClock(monkeypatch)
    response = client.get(url, params={"since": token, "wait": 1.5})
    assert response.status_code == 200 and response.json()["progress"] == token
    # Held for the whole wait, the batch checked every CHECK_SECONDS and no more often.
    assert clock.now == pytest.approx(1.5)
    step = batch_status.CHECK_SECONDS
    assert clock.checks == pytest.approx([step * n for n in range(1, round(1.5 / step) + 1)])


def test_a_held_request_answers_as_soon_as_work_moves(
    client: TestClient, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, batch_id, token = batch_seen(client, sessions)
    clock = ServerClock(monkeypatch, 0.5, lambda: list_pages(sessions, batch_id))
    status = client.get(url, params={"since": token, "wait": 20}).json()
    assert status["progress"] != token and status["pages"] == {"pending": 2}
    assert clock.checks == [0.25, 0.5] and clock.now == 0.5  # answered at the move's check


def test_a_stale_token_or_a_finished_batch_answers_at_once(
    client: TestClient, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, batch_id, token = batch_seen(client, sessions)
    list_pages(sessions, batch_id)
    clock = ServerClock(monkeypatch)
    response = client.get(url, params={"since": token, "wait": 20})
    assert response.json()["progress"] != token
    assert clock.now == 0 and clock.checks == []  # not held at all
    with transaction(sessions) as db:
        for page in db.scalars(select(Page).where(Page.batch_id == batch_id)):
            page.status = PageStatus.NO_GRID
    finished = client.get(url).json()
    assert finished["finished"]
    response = client.get(url, params={"since": finished["progress"], "wait": 20})
    assert response.json()["progress"] == finished["progress"]
    assert clock.now == 0 and clock.checks == []


def test_pace_holds_a_moved_batch_but_not_its_end(
    client: TestClient, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, batch_id, token = batch_seen(client, sessions)
    list_pages(sessions, batch_id)  # moved before the request came
    clock = ServerClock(monkeypatch)
    response = client.get(url, params={"since": token, "wait": 20, "pace": 1.5})
    assert response.json()["progress"] != token
    assert clock.now == pytest.approx(1.5)  # held for the pace, though it had moved
    moved = response.json()["progress"]
    with transaction(sessions) as db:
        for page in db.scalars(select(Page).where(Page.batch_id == batch_id)):
            page.status = PageStatus.NO_GRID
    held_before = clock.now
    response = client.get(url, params={"since": moved, "wait": 20, "pace": 5})
    assert response.json()["finished"] and clock.now == held_before  # at once, whatever pace


def test_wait_is_bounded_and_needs_the_key_that_owns_the_batch(
    client: TestClient,
    settings: Settings,
    sessions: sessionmaker[Session],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, _, token = batch_seen(client, sessions)
    for wait in (-1, 30.5, "soon"):
        assert client.get(url, params={"since": token, "wait": wait}).status_code == 422, wait
    held = {"since": token, "wait": 5}
    clock = ServerClock(monkeypatch)
    with api_client(settings) as stranger:
        response = stranger.get(url, params=held)
        assert response.status_code == 404 and clock.now == 0  # not held
        assert stranger.get(f"/batches/{uuid.uuid4()}", params=held).status_code == 404
    anonymous = client.get(url, params=held, headers={"Authorization": "Bearer sbk_not-a-key"})
    assert anonymous.status_code == 401


@pytest.fixture
def one_connection(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A client of an API whose pool holds one connection and waits 3 s at most for it."""

    def single(url: str) -> Engine:
        return create_engine(normalise_url(url), pool_size=1, max_overflow=0, pool_timeout=3)

    monkeypatch.setattr(api_app, "make_engine", single)
    with api_client(settings) as client:
        yield client


def test_a_held_request_holds_no_connection_while_it_waits(
    one_connection: TestClient, sessions: sessionmaker[Session]
) -> None:
    url, _, token = batch_seen(one_connection, sessions)
    held: list[Any] = []
    waiter = threading.Thread(
        target=lambda: held.append(get_timed(one_connection, url, since=token, wait=3))
    )
    waiter.start()
    time.sleep(0.3)
    meanwhile = [one_connection.get(url) for _ in range(5)]
    waiter.join()
    # Had the waiting request kept the pool's one connection, these would have timed out.
    assert [response.status_code for response in meanwhile] == [200] * 5
    took, response = held[0]
    assert response.status_code == 200 and took >= 2.9


def test_a_database_outage_while_waiting_answers_503(
    client: TestClient, sessions: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _, token = batch_seen(client, sessions)
    checks = []
    real = batch_status.batch_progress

    def going_down(db: Session, batch_id: int) -> Any:
        checks.append(batch_id)
        if len(checks) > 2:
            raise sqlalchemy.exc.OperationalError("SELECT", {}, ConnectionRefusedError())
        return real(db, batch_id)

    monkeypatch.setattr(batch_status, "batch_progress", going_down)
    response = client.get(url, params={"since": token, "wait": 10})
    assert response.status_code == 503 and len(checks) == 3
    assert "database is unreachable" in response.json()["detail"]
    assert response.headers["retry-after"]


@pytest.fixture
def statements() -> Iterator[list[str]]:
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(sql.split("\n")[0][:90])

    event.listen(Engine, "before_cursor_execute", count)
    yield seen
    event.remove(Engine, "before_cursor_execute", count)


def test_a_status_answer_asks_few_statements(
    client: TestClient, sessions: sessionmaker[Session], statements: list[str]
) -> None:
    public_id, batch_id = new_batch(client, sessions)
    list_pages(sessions, batch_id)
    url = f"/batches/{public_id}"
    statements.clear()
    token = client.get(url).json()["progress"]
    # The key, the batch, its subjects by state and its stage runs (before: 10 statements).
    assert len(statements) <= 4, statements
    statements.clear()
    get_timed(client, url, since=token, wait=1)
    # The same, and one cheap statement per check: one at once, then every CHECK_SECONDS.
    checks = 1 + round(1 / batch_status.CHECK_SECONDS)
    assert len(statements) <= 4 + checks, statements


class CountingClient:
    """The API's test client, counting the status requests ``wait_for`` makes."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.base_url = client.base_url
        self.requests = 0
        self.sent: list[float] = []  # when each request was sent

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        self.requests += 1
        self.sent.append(time.monotonic())
        return self.client.request(method, url, **kwargs)


def test_submit_wait_follows_a_moving_batch_with_few_requests(
    client: TestClient, sessions: sessionmaker[Session]
) -> None:
    public_id, batch_id = new_batch(client, sessions)
    moves, every = 40, 0.05  # a page finished every 0.05 s, for about 2 s
    page_ids = list_pages(sessions, batch_id, pages=moves)
    ended: list[float] = []

    def work() -> None:
        for page_id in page_ids:
            time.sleep(every)
            finish_page(sessions, page_id)
        ended.append(time.monotonic())

    counting = CountingClient(client)
    worker = threading.Thread(target=work)
    started = time.monotonic()
    worker.start()
    last = wait_for(counting, public_id, progress=False)
    worker.join()
    assert last["finished"] and last["pages"] == {"no_grid": moves}
    # About two requests a second of work as it went (however long a busy machine made it),
    # not one per move (nor ten a second, as before); the end seen by the request that was
    # held when it came, or by the next one, not after a pause.
    assert counting.requests <= (ended[0] - started) * 2 + 4, counting.requests
    assert sum(sent >= ended[0] for sent in counting.sent) <= 1, counting.sent


def test_the_openapi_schema_documents_since_wait_pace_and_progress(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    route = schema["paths"]["/batches/{batch_id}"]["get"]
    parameters = {p["name"]: p for p in route["parameters"] if p["in"] == "query"}
    assert set(parameters) == {"since", "wait", "pace"}
    assert parameters["wait"]["schema"]["maximum"] == parameters["pace"]["schema"]["maximum"] == 30
    assert {"401", "404", "422", "503"} <= set(route["responses"])
    status = schema["components"]["schemas"]["BatchStatus"]
    assert "progress" in status["required"] and status["properties"]["progress"]["description"]


def test_the_grouped_statements_count_as_the_per_stage_ones_did(
    any_sessions: sessionmaker[Session],
) -> None:
    """A batch in every state at once; the expected counts are what the statements per model
    and per stage answered before (checked side by side on both databases)."""
    sent = datetime(2026, 1, 1, tzinfo=UTC)
    with transaction(any_sessions) as db:
        batch_id = create_batch(db, LABEL)
        files = [
            InputFile(
                batch_id=batch_id,
                name=f"{n}",
                stored_path=f"{uuid.uuid4()}",
                status=status,
                queued_at=sent - timedelta(seconds=n),
                started_at=sent if n % 2 else None,
            )  # fmt: skip
            for n, status in enumerate(["pending", "pending", "pending", "expanded", "failed"])
        ]
        db.add_all(files)
        db.flush()
        pages = [
            ("pending", "pdf", None), ("pending", "pdf", sent), ("pending", "text_line", None),
            ("pending", "text_line", sent), ("done", "pdf", sent), ("no_grid", "pdf", sent),
            ("failed", "text_line", None),
        ]  # fmt: skip
        puzzle_states = ["pending", "read", "solved", "read", "failed", "unsolvable"]
        for n, (status, form, started) in enumerate(pages):
            page = Page(
                batch_id=batch_id, input_file_id=files[3].id, source="s", page_number=n,
                format=form, status=status, queued_at=sent - timedelta(seconds=7 * n),
                started_at=started,
            )  # fmt: skip
            db.add(page)
            db.flush()
            outcome = "failed" if n % 3 == 0 else "ok"
            db.add(stage_run(batch_id, "rectify", outcome, n * 0.37 if n % 2 else None, page.id))
            for i, state in enumerate(puzzle_states[:n]):
                puzzle = Puzzle(
                    batch_id=batch_id, page_id=page.id, index_on_page=i, status=state,
                    queued_at=sent - timedelta(seconds=i + n),
                    started_at=sent if (i + n) % 3 == 0 else None,
                )  # fmt: skip
                db.add(puzzle)
                db.flush()
                db.add(stage_run(batch_id, "ocr", "ok", 0.1 * i, puzzle_id=puzzle.id))
                if state in ("solved", "failed"):
                    solved = "ok" if state == "solved" else "failed"
                    db.add(stage_run(batch_id, "solve", solved, None, puzzle_id=puzzle.id))
    with any_sessions() as db:
        status = state_counts(subject_states(db, batch_id))
        stages = {k: vars(v) for k, v in stage_progress(db, batch_id, sent).items()}
    assert {k: status[k] for k in ("inputs", "pages", "puzzles", "unfinished", "finished")} == {
        "inputs": {"expanded": 1, "failed": 1, "pending": 3},
        "pages": {"done": 1, "failed": 1, "no_grid": 1, "pending": 4},
        "puzzles": {"failed": 2, "pending": 6, "read": 8, "solved": 4, "unsolvable": 1},
        "unfinished": 21,
        "finished": False,
    }
    assert list(status["puzzles"]) == sorted(status["puzzles"])
    assert stages == {
        "ingest": progress(0, 0, None, 2.0, 2, 1),
        "rectify": progress(4, 3, 1.11, 0.0, 1, 1),
        "ocr": progress(21, 0, 0.17, 5.0, 4, 2),
        "solve": progress(4, 2, None, 8.0, 5, 3),
    }


def stage_run(
    batch_id: int,
    stage: str,
    outcome: str,
    waited: float | None,
    page_id: int | None = None,
    puzzle_id: int | None = None,
) -> StageRun:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return StageRun(
        batch_id=batch_id, page_id=page_id, puzzle_id=puzzle_id, stage=stage, status=outcome,
        started_at=at, finished_at=at, seconds=1.0, waited_seconds=waited,
    )  # fmt: skip


def progress(
    done: int, failed: int, mean: float | None, oldest: float | None, queued: int, running: int
) -> dict[str, Any]:
    return {
        "done": done, "failed": failed, "mean_wait_seconds": mean, "oldest_wait_seconds": oldest,
        "queued": queued, "running": running, "done_inline": 0,
    }  # fmt: skip
