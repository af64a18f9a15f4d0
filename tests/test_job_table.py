"""The job's table drives the routing: a stage added as one row is routed, handed over,
counted and sequenced with no other change (jobs.table)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from sudoku_batch.jobs import table
from sudoku_batch.jobs.table import JobStep, Step, Subject, TimeLimits, job_steps, sequence
from sudoku_batch.settings import Settings
from sudoku_batch.store.handover import Handoff, waiting
from sudoku_batch.store.models import InputFile, InputStatus, Page, PageStatus, Puzzle, PuzzleStatus
from sudoku_batch.store.progress import RunState, SubjectState, stages_of
from sudoku_batch.workers.app import make_celery, solve_time_limits
from sudoku_batch.workers.publish import task_args
from sudoku_batch.workers.stage import stage_task

DESKEW = "sudoku_batch.deskew"
# A stage between ingest and rectify, as a new stage would be declared: one row.
FAKE = JobStep(
    DESKEW,  # type: ignore[arg-type]
    "deskew",  # type: ignore[arg-type]
    Subject.PAGE,
    waits_in="pending",
    text=False,
    module="sudoku_batch.workers.tasks.deskew",
    queue="deskew",
    priority=7,
    listed=True,
    then=Step.RECTIFY,
    time_limits=TimeLimits.SOLVE,
)


@pytest.fixture
def deskew_added(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(table.STEPS, FAKE.step, FAKE)
    ingest = table.STEPS[Step.INGEST]
    monkeypatch.setitem(table.STEPS, Step.INGEST, replace(ingest, then=FAKE.step))


def test_todays_table_routes_each_step_to_its_stages_queue_later_stages_first() -> None:
    routes = make_celery(Settings.from_env({})).conf.task_routes
    assert routes == {
        Step.INGEST: {"queue": "ingest", "priority": 9},
        Step.INGEST_TEXT: {"queue": "ingest", "priority": 9},
        Step.RECTIFY: {"queue": "rectify", "priority": 6},
        Step.OCR: {"queue": "ocr", "priority": 3},
        Step.SOLVE: {"queue": "solve", "priority": 0},
        Step.SOLVE_TEXT: {"queue": "solve", "priority": 0},
    }
    assert table.queues() == ["ingest", "rectify", "ocr", "solve"]
    assert {row.step: waiting(row.step) for row in job_steps()} == {
        Step.INGEST: (InputFile, InputStatus.PENDING),
        Step.INGEST_TEXT: (InputFile, InputStatus.PENDING),
        Step.RECTIFY: (Page, PageStatus.PENDING),
        Step.OCR: (Puzzle, PuzzleStatus.PENDING),
        Step.SOLVE: (Puzzle, PuzzleStatus.READ),
        Step.SOLVE_TEXT: (Puzzle, PuzzleStatus.READ),
    }
    assert [row.step for row in sequence(Step.INGEST)] == [
        Step.INGEST,
        Step.RECTIFY,
        Step.OCR,
        Step.SOLVE,
    ]


@pytest.mark.usefixtures("deskew_added")
def test_a_stage_added_to_the_table_is_routed_with_its_queue_priority_and_limits() -> None:
    settings = Settings.from_env({})
    conf = make_celery(settings).conf
    assert conf.task_routes[DESKEW] == {"queue": "deskew", "priority": 7}
    soft, hard = solve_time_limits(settings)
    assert conf.task_annotations[DESKEW] == {"soft_time_limit": soft, "time_limit": hard}
    assert "sudoku_batch.workers.tasks.deskew" in conf.include
    assert "deskew" in table.queues()


@pytest.mark.usefixtures("deskew_added")
def test_a_stage_added_to_the_table_gets_its_task_options_and_hand_overs() -> None:
    def deskew_pages(self: object, page_ids: list[int]) -> None:
        """The step function would be called here."""

    task = stage_task(make_celery(Settings.from_env({})), FAKE.step)(deskew_pages)
    assert (task.name, task.stage, task.subject, task.then) == (
        DESKEW,
        "deskew",
        Subject.PAGE,
        Step.RECTIFY,
    )
    assert waiting(FAKE.step) == (Page, PageStatus.PENDING)
    # A listed step: a page's subjects go in one message.
    assert task_args([Handoff(FAKE.step, 1, "p1"), Handoff(FAKE.step, 2, "p2")]) == [[1, 2]]
    assert [row.step for row in sequence(Step.INGEST)][:3] == [Step.INGEST, DESKEW, Step.RECTIFY]


@pytest.mark.usefixtures("deskew_added")
def test_a_stage_added_to_the_table_is_listed_in_the_progress() -> None:
    subjects = {
        "inputs": {},
        "pages": {"pending": SubjectState(count=3, queued=2, running=1, oldest_queued=None)},
        "puzzles": {},
    }
    runs = {"deskew": {"ok": RunState(count=4, inline=0, mean_wait=0.5, last_finished=None)}}
    progress = stages_of(subjects, runs)
    assert list(progress) == ["ingest", "rectify", "ocr", "solve", "deskew"]
    deskew = progress["deskew"]
    assert (deskew.queued, deskew.running, deskew.done, deskew.failed) == (2, 1, 4, 0)


def test_the_embedded_runner_runs_a_pages_steps_in_the_tables_order() -> None:
    from sudoku_batch import page_job

    # Every step a photo's pages go through on the server after ingest, none left out.
    steps = [page_job.PAGE_STEP, *page_job.BOARD_STEPS]
    assert [row.step for row in steps] == [row.step for row in sequence(Step.INGEST)[1:]]
    # Each board step of the table has its run here (else its boards would fail).
    assert list(page_job.BOARD_RUNS) == [row.step for row in page_job.BOARD_STEPS]
