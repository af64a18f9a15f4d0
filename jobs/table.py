"""The job, declared once: its stages and the steps that run them, one row a step.

Everything that names a step reads it from here: the Celery routes, priorities, time limits
and task options (``workers.app``, ``workers.stage.stage_task``), which subjects wait for
which step and what each task hands on to (``store.handover``, ``workers.publish``), the
progress counts per stage (``store.progress``) and the order the embedded runner calls a
board's steps in (``sudoku_batch.page_job``). A new stage is one row here plus its step
function, its task and, for the embedded runner, its run in ``page_job.BOARD_RUNS``.
Standard library only, so the store, the workers and the embedded runner's pool processes
read it alike (``tests/test_layout.py``: a leaf module).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Stage(StrEnum):
    """What stage runs and failures are recorded under (several steps may share one)."""

    INGEST = "ingest"  # input file -> pages
    RECTIFY = "rectify"  # page -> boards and their cells
    OCR = "ocr"  # board -> reading
    SOLVE = "solve"  # reading -> solution and render


class Subject(StrEnum):
    """What a step works on, named as ``record_failure``'s keyword for its id."""

    INPUT_FILE = "input_file_id"
    PAGE = "page_id"
    PUZZLE = "puzzle_id"


class Step(StrEnum):
    """Each step's Celery task name: what a waiting subject is handed to. Senders need only
    the name, so they need not import the pipeline."""

    INGEST = "sudoku_batch.ingest"
    RECTIFY = "sudoku_batch.rectify"
    OCR = "sudoku_batch.ocr"
    SOLVE = "sudoku_batch.solve"
    # A text file of puzzles skips the vision stages: its lines are read as they are, solved.
    INGEST_TEXT = "sudoku_batch.ingest_text"
    SOLVE_TEXT = "sudoku_batch.solve_text"


class TimeLimits(StrEnum):
    """Which of ``workers.app``'s time limits a step's task runs under."""

    STAGE = "stage"  # a page's or an input file's work: seconds, a model load at most
    SOLVE = "solve"  # a grid's solving, doubts, rating and render
    READ_AND_SOLVE = "read_and_solve"  # a page's boards read, the cheap ones solved at once


@dataclass(frozen=True)
class JobStep:
    step: Step
    stage: Stage
    subject: Subject
    waits_in: str  # the subject's status while it waits for this step (store.models)
    text: bool | None  # whether its subjects come from a text file of puzzles; None: either
    module: str  # the module holding its Celery task
    queue: str  # each stage its own queue, so each can be scaled on its own
    # On Redis a lower number goes first (workers.app): later stages first, so a book's results
    # come out while its pages are still being read.
    priority: int
    listed: bool  # its task takes a list of subject ids: a page's boards in one message
    # Where its subjects go next (the OCR task solves at once what is cheap and certain).
    then: Step | None
    time_limits: TimeLimits = TimeLimits.STAGE


STEPS: dict[Step, JobStep] = {
    row.step: row
    for row in (
        JobStep(
            Step.INGEST,
            Stage.INGEST,
            Subject.INPUT_FILE,
            waits_in="pending",
            text=False,
            module="sudoku_batch.workers.tasks.ingest",
            queue="ingest",
            priority=9,
            listed=False,
            then=Step.RECTIFY,
        ),
        JobStep(
            Step.INGEST_TEXT,
            Stage.INGEST,
            Subject.INPUT_FILE,
            waits_in="pending",
            text=True,
            module="sudoku_batch.workers.tasks.ingest_text",
            queue="ingest",
            priority=9,
            listed=False,
            then=Step.SOLVE_TEXT,
        ),
        JobStep(
            Step.RECTIFY,
            Stage.RECTIFY,
            Subject.PAGE,
            waits_in="pending",
            text=False,
            module="sudoku_batch.workers.tasks.rectify",
            queue="rectify",
            priority=6,
            listed=False,
            then=Step.OCR,
        ),
        JobStep(
            Step.OCR,
            Stage.OCR,
            Subject.PUZZLE,
            waits_in="pending",
            text=None,  # a text puzzle is never pending: it is read as it is ingested
            module="sudoku_batch.workers.tasks.ocr",
            queue="ocr",
            priority=3,
            listed=True,
            then=Step.SOLVE,
            time_limits=TimeLimits.READ_AND_SOLVE,
        ),
        JobStep(
            Step.SOLVE,
            Stage.SOLVE,
            Subject.PUZZLE,
            waits_in="read",
            text=False,
            module="sudoku_batch.workers.tasks.solve",
            queue="solve",
            priority=0,
            listed=False,
            then=None,
            time_limits=TimeLimits.SOLVE,
        ),
        JobStep(
            Step.SOLVE_TEXT,
            Stage.SOLVE,
            Subject.PUZZLE,
            waits_in="read",
            text=True,
            module="sudoku_batch.workers.tasks.solve_text",
            queue="solve",
            priority=0,
            listed=False,
            then=None,
            time_limits=TimeLimits.SOLVE,
        ),
    )
}


# Read through these, at the time of use: a test may add a row to STEPS.
def job_step(step: Step) -> JobStep:
    return STEPS[step]


def job_steps() -> list[JobStep]:
    return list(STEPS.values())


def stages() -> list[Stage]:
    """Every stage, in the order of the table's rows."""
    return list(dict.fromkeys(row.stage for row in STEPS.values()))


def queues() -> list[str]:
    """Every queue, in the order of the table's rows (as ``worker -Q`` lists them by
    default)."""
    return list(dict.fromkeys(row.queue for row in STEPS.values()))


def sequence(first: Step) -> list[JobStep]:
    """``first`` and the steps its subjects go on to, in order."""
    rows = [STEPS[first]]
    while rows[-1].then is not None:
        rows.append(STEPS[rows[-1].then])
    return rows
