"""The whole server side at once: real Celery worker and Flower processes on the test database
and a Redis prefix of their own, a batch of images and one of text puzzles submitted through the
API, rows checked in PostgreSQL and the finished tasks checked in Flower's HTTP API."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.outcome import ExitCode
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.grid import Puzzle as GridPuzzle
from sudoku_batch.settings import Settings
from sudoku_batch.store.models import Batch, Cell, Page, Puzzle, Solution
from tests.integration.conftest import (
    RUN_ID,
    Service,
    api_client,
    celery_argv,
    free_port,
    image_worker,
    settings_env,
    wait_until,
)
from tests.integration.test_text_batches import PUZZLES

pytestmark = pytest.mark.services

FLOWER_AUTH = ("flower", "e2e-secret")
CLI = [sys.executable, "-m", "sudoku_batch.cli"]
# Bounds against a hang, not expectations: the run takes a fraction of them.
WORKER_START_LIMIT = 60.0
BATCH_LIMIT = 150.0


@dataclass
class Stack:
    settings: Settings
    worker_name: str
    flower: httpx.Client
    services: list[Service]

    def logs(self) -> str:
        return "\n".join(f"--- {s.name} ---\n{s.log_tail()}" for s in self.services)


@pytest.fixture(scope="module")
def stack(
    make_settings: Callable[[str], Settings], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stack]:
    settings = make_settings("e2e")
    env = {**settings_env(settings), "OMP_NUM_THREADS": "1"}
    logs = tmp_path_factory.mktemp("logs")
    port = free_port()
    worker_name = f"e2e-{RUN_ID}@localhost"
    services: list[Service] = []
    try:
        # Flower first: it only knows the tasks whose events it saw.
        services.append(
            Service(
                "flower",
                celery_argv(
                    "flower",
                    "--address=127.0.0.1",
                    f"--port={port}",
                    f"--basic-auth={':'.join(FLOWER_AUTH)}",
                ),
                env,
                logs,
            )
        )
        services.append(image_worker(worker_name, env, logs))
        flower = httpx.Client(base_url=f"http://127.0.0.1:{port}", auth=FLOWER_AUTH, timeout=10)
        stack = Stack(settings, worker_name, flower, services)
        wait_until(lambda: _flower_lists_worker(stack), WORKER_START_LIMIT, "the worker in Flower")
        yield stack
        flower.close()
    finally:
        for service in services:
            service.stop()


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=5).is_success
    except httpx.HTTPError:
        return False  # still starting


def _flower_lists_worker(stack: Stack) -> bool:
    for service in stack.services:
        if not service.alive():
            pytest.fail(f"{service.name} exited early:\n{stack.logs()}")
    try:
        response = stack.flower.get("/api/workers", params={"refresh": "1"})
    except httpx.HTTPError:
        return False  # Flower still starting
    return response.status_code == 200 and stack.worker_name in response.json()


def grid_page() -> bytes:
    from sudoku_batch.synth.unique import unique_puzzle

    return page_of(unique_puzzle(GridShape(3, 3), np.random.default_rng(7), givens=32).puzzle)


def page_of(puzzle: GridPuzzle) -> bytes:
    """A page with ``puzzle`` printed on it, as PNG."""
    from sudoku_batch.synth.grid_image import render_grid

    image = render_grid(puzzle, cell_px=48).image
    page = np.full((image.shape[0] + 200, image.shape[1] + 200, 3), 255, np.uint8)
    page[100 : 100 + image.shape[0], 100 : 100 + image.shape[1]] = image
    return cv2.imencode(".png", page)[1].tobytes()


def blank_page() -> bytes:
    return cv2.imencode(".png", np.full((600, 450, 3), 255, np.uint8))[1].tobytes()


def test_a_batch_flows_through_every_queue_into_postgres_and_flower(
    stack: Stack, sessions: sessionmaker[Session]
) -> None:
    with api_client(stack.settings) as api:
        refused = api.post("/batches", files=[("files", ("notes.txt", b"not a puzzle"))])
        assert refused.status_code == 415
        assert "not an image, PDF or zip" in refused.json()["detail"]
        submitted = api.post(
            "/batches",
            files=[
                ("files", ("grid.png", grid_page())),
                ("files", ("blank.png", blank_page())),
            ],
        )
        assert submitted.status_code == 201, submitted.text
        batch_id = submitted.json()["batch_id"]

        def finished() -> dict | None:
            status = api.get(f"/batches/{batch_id}").json()
            return status if status["finished"] else None

        try:
            status = wait_until(finished, BATCH_LIMIT, f"batch {batch_id} to finish", 1.0)
        except pytest.fail.Exception:
            pytest.fail(f"batch {batch_id} did not finish:\n{stack.logs()}")
        records = api.get(f"/batches/{batch_id}/results").json()["items"]
        grid_id = next(r["puzzle_id"] for r in records if r["source"] == "grid.png")
        detail = api.get(f"/puzzles/{grid_id}").json()
        render = api.get(f"/puzzles/{grid_id}/render.png")

    by_source = {record["source"]: record for record in records}
    assert by_source["blank.png"]["status"] == "no_grid", stack.logs()
    grid = by_source["grid.png"]
    assert grid["status"] in {"solved", "unsolvable", "multiple_solutions", "timeout"}, grid
    assert grid["size"] == [9, 9] and grid["box"] == [3, 3]
    assert status["puzzles"] == {grid["status"]: 1}
    # Progress per stage, from the rows: all done, and how long work waited for a worker.
    done = {stage: progress["done"] for stage, progress in status["stages"].items()}
    assert done == {"ingest": 2, "rectify": 1, "ocr": 1, "solve": 1}
    assert status["stages"]["rectify"]["failed"] == 1  # the blank page: no grid
    assert all(stage["queued"] == stage["running"] == 0 for stage in status["stages"].values())
    assert status["stages"]["ocr"]["mean_wait_seconds"] >= 0
    assert len(detail["cells"]) == 81
    if grid["status"] == "solved":
        assert render.headers["content-type"] == "image/jpeg"
        assert cv2.imdecode(np.frombuffer(render.content, np.uint8), cv2.IMREAD_COLOR) is not None

    with sessions() as db:
        batch = db.scalars(select(Batch).where(Batch.public_id == batch_id)).one()
        puzzle = db.scalars(select(Puzzle).where(Puzzle.batch_id == batch.id)).one()
        assert puzzle.givens is not None and puzzle.lowest_confidence is not None
        # Every cell that takes a digit carries a confidence: a given's in its digit, an
        # empty cell's in its being empty.
        unsure = db.scalar(
            select(func.count()).where(
                Cell.puzzle_id == puzzle.id, Cell.kind != "blocked", Cell.confidence.is_(None)
            )
        )
        digits = db.scalar(
            select(func.count()).where(Cell.puzzle_id == puzzle.id, Cell.digit.is_not(None))
        )
        givens = db.scalar(
            select(func.count()).where(Cell.puzzle_id == puzzle.id, Cell.kind == "given")
        )
        assert unsure == 0 and digits == givens > 0
        solution = db.scalars(select(Solution).where(Solution.puzzle_id == puzzle.id)).one()
        assert solution.verdict and solution.backend
        assert db.scalar(select(func.count()).where(Page.batch_id == batch.id)) == 2

    tasks = stack.flower.get("/api/tasks").json()
    finished_names = {task["name"] for task in tasks.values() if task["state"] == "SUCCESS"}
    # The OCR task settles an easy reading itself: no solve task for it.
    assert finished_names == {"sudoku_batch.ingest", "sudoku_batch.rectify", "sudoku_batch.ocr"}
    assert {task["worker"] for task in tasks.values()} == {stack.worker_name}
    # Readable in Flower: where each task's subject comes from, not only its id.
    ocr = next(task for task in tasks.values() if task["name"] == "sudoku_batch.ocr")
    assert "grid.png p1 #0" in ocr["args"]
    # Only the OCR task returns something, a line for Flower of where its readings were solved
    # (its task-succeeded event carries it; there is no result backend to store it in).
    assert ocr["result"] == "'read 1: 1 solved here, 0 to solve'"
    others = [task for task in tasks.values() if task is not ocr]
    assert {task.get("result") for task in others} <= {None, "None"}


def test_a_text_batch_submitted_with_the_cli_is_solved_line_by_line_on_the_solve_queue(
    stack: Stack, sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_bytes(PUZZLES)  # a solvable, an unsolvable, a many-solution, a malformed line
    env = settings_env(stack.settings)
    api_url = f"http://127.0.0.1:{free_port()}"
    made = subprocess.run(
        [*CLI, "keys", "create", f"cli-{RUN_ID}"], env=env, capture_output=True, text=True
    )
    assert made.returncode == 0 and "shown only now" in made.stderr, made.stderr
    key = made.stdout.strip()
    api = Service("api", [*CLI, "api", f"--port={api_url.rsplit(':', 1)[1]}"], env, tmp_path)
    try:
        wait_until(lambda: _answers(f"{api_url}/docs"), WORKER_START_LIMIT, "the API")
        submitted = subprocess.run(
            [*CLI, "submit", "--text", str(puzzles), "--wait", "--no-progress", f"--api={api_url}"],
            env={**env, "SUDOKU_BATCH_API_KEY": key},
            capture_output=True,
            text=True,
            timeout=BATCH_LIMIT,
        )
    finally:
        api.stop()
    # A malformed line is an input that failed: the exit code says so, as run's does.
    assert submitted.returncode == ExitCode.SOME_INPUTS_FAILED, (
        f"{submitted.stderr}\n{stack.logs()}"
    )
    records = [json.loads(line) for line in submitted.stdout.splitlines()]
    assert [(r["page"], r["status"]) for r in records] == [
        (2, "solved"),
        (3, "unsolvable"),
        (5, "multiple_solutions"),
        (6, "failed"),
    ]
    with sessions() as db:
        batch_id = db.scalar(select(Batch.id).where(Batch.public_id == records[0]["batch_id"]))
        verdicts = db.execute(
            select(Page.page_number, Page.status, Puzzle.status, Solution.verdict, Page.error_code)
            .outerjoin(Puzzle, Puzzle.page_id == Page.id)
            .outerjoin(Solution, Solution.puzzle_id == Puzzle.id)
            .where(Page.batch_id == batch_id)
            .order_by(Page.page_number)
        ).all()
    assert [tuple(row) for row in verdicts] == [
        (2, "done", "solved", "solved", None),
        (3, "done", "unsolvable", "unsolvable", None),
        (5, "done", "multiple_solutions", "multiple_solutions", None),
        (6, "failed", None, None, "malformed_text"),
    ], stack.logs()
    tasks = stack.flower.get("/api/tasks").json()
    solved_text = [t for t in tasks.values() if t["name"] == "sudoku_batch.solve_text"]
    assert len(solved_text) == 3 and {t["state"] for t in solved_text} == {"SUCCESS"}
