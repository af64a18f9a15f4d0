"""OCR: read the boards of one page, each turned upright from its content first, then solve
each reading.

Rectify hands a page's boards over in one message (``jobs.table``: a listed step): the task
claims them together, reads and solves each, and records every outcome in one transaction: a
message, a claim and a transaction per board would cost the server a large part of what
reading a board does.

The task settles what it read when that is cheap and certain: decided by propagation, or by
the in-process solver within a conflict budget (``pipeline.solve.inline``); for such a board a
solve task's message, claim, transaction and task events would cost about as much CPU as the
solving itself. Any other reading (every one that needs Kissat), and one whose solving fails
here, is recorded alone and handed to the solve task, under that task's time limits and error
policy, so a hard grid never holds an OCR worker. Each solve's stage run says which task it
ran in; the task's result (shown by Flower) counts both.

Each board keeps its own error policy (``workers.stage.failures_recorded``): one that cannot be
read is recorded as failed, and the page's other boards go on. Boards not begun within
``READING_WINDOW`` seconds are handed on in a message of their own, so the task's time limits
do not grow with a page's boards; and a task run again (its process died, or an unexpected
error) hands each board on alone, so a board that kills its process fails alone.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.orm import Session

from sudoku_batch.jobs.steps import BoardContext, Clock, read_board_step
from sudoku_batch.jobs.table import Stage, Step
from sudoku_batch.pipeline.solve.inline import BeyondBudget
from sudoku_batch.store import load
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.db import autocommit, transaction
from sudoku_batch.store.handover import (
    Claimed,
    Handoff,
    all_still_waiting,
    claim_all,
    labelled,
    released,
    taken_at_once,
    unsent,
)
from sudoku_batch.store.record import (
    ReadingToRecord,
    SolutionToRecord,
    record_readings,
    record_solutions,
)
from sudoku_batch.workers import runtime
from sudoku_batch.workers.app import READING_WINDOW, app
from sudoku_batch.workers.publish import send_all
from sudoku_batch.workers.stage import (
    StageTask,
    failures_recorded,
    flukes_retried,
    outages_retried,
    stage_task,
)
from sudoku_batch.workers.tasks.solve import solved_reading

logger = logging.getLogger(__name__)


@dataclass
class BoardRead:
    """One board's outcome, to record with the page's others."""

    claim: Claimed
    reading: ReadingToRecord
    solution: SolutionToRecord | None  # None: handed to the solve task


@stage_task(app, Step.OCR)
def read_boards(self: StageTask, puzzle_ids: list[int]) -> str | None:
    with outages_retried(self), flukes_retried(self):
        if self.request.retries and len(puzzle_ids) > 1:
            _each_alone(self, puzzle_ids)
            return None
        done, later = _read_all(self, puzzle_ids)
        handoffs = _record(self, done)
        to_solve = len(handoffs)
        handoffs += [Handoff(self.step, claim.row.id, claim.label) for claim in later]
        if handoffs:
            send_all(app, runtime.marker_sessions(), handoffs)
        return f"read {len(done)}: {len(done) - to_solve} solved here, {to_solve} to solve"


def _read_all(task: StageTask, puzzle_ids: list[int]) -> tuple[list[BoardRead], list[Claimed]]:
    """Claim the boards, read and solve each begun within the window: those, and the claimed
    boards left for a message of their own."""
    artifacts = runtime.artifacts()
    running = Clock()
    done: list[BoardRead] = []
    later: list[Claimed] = []
    # Autocommit: no transaction is held while the boards are read and solved, only the claimed
    # rows, which the loads and the solving find in the session.
    with autocommit(runtime.marker_sessions()) as session:
        claims = claim_all(session, task.step, puzzle_ids, runtime.incarnation())
        if not claims:
            logger.info("%s%s: already past this step, nothing to do", task.name, puzzle_ids)
        for begun, claim in enumerate(claims):
            if begun and running.seconds > READING_WINDOW:
                later.append(claim)
                continue
            with failures_recorded(task, claim.row.id) as clock:
                done.append(_read_and_solve(task, session, claim, artifacts, clock))
        released(session, task.step, [claim.row.id for claim in later])
    return done, later


def _read_and_solve(
    task: StageTask, session: Session, claim: Claimed, artifacts: Artifacts, clock: Clock
) -> BoardRead:
    puzzle_id = claim.row.id
    board, image_path = load.stored_board(session, puzzle_id, artifacts)
    cells = load.stored_cells(session, puzzle_id)
    page, index = load.puzzle_page(session, puzzle_id)
    at = BoardContext(page, index, artifacts)
    read = read_board_step(board, image_path, cells, at, runtime.ocr_engine())
    recognised = read.recognised
    reading = ReadingToRecord(puzzle_id, recognised, read.image_path, clock.seconds)
    solving = Clock()
    try:
        solved = solved_reading(
            session,
            puzzle_id,
            recognised.reading,
            claim.row.printed_role,
            recognised.board,
            runtime.inline_backend(),
        )
    except BeyondBudget:
        return BoardRead(claim, reading, None)
    except Exception:
        logger.warning("%s[%s]: solving handed on", task.name, puzzle_id, exc_info=True)
        return BoardRead(claim, reading, None)
    solution = SolutionToRecord(
        puzzle_id, solved.solution, solved.render_path, solving.seconds, solved.facts
    )
    return BoardRead(claim, reading, solution)


def _record(task: StageTask, done: list[BoardRead]) -> list[Handoff]:
    """Record the boards read, each only if it still waits, in the same few statements however
    many; the solve task's hand-overs."""
    if not done:
        return []
    worker = runtime.worker_name(task.request.hostname)
    with transaction(runtime.sessions()) as recording:
        waiting = all_still_waiting(recording, task.step, [each.claim.row.id for each in done])
        done = [each for each in done if each.claim.row.id in waiting]
        # Nothing below reads back what the ORM holds unsent: the puzzles' changes go out once,
        # at the commit, as the embedded runner's do.
        with recording.no_autoflush:
            record_readings(recording, [each.reading for each in done], worker, task=Stage.OCR)
            for each in done:
                puzzle = waiting[each.claim.row.id]
                if each.solution is None:
                    unsent(puzzle)  # now waiting for the solve task
                else:
                    taken_at_once(puzzle, runtime.incarnation())  # solved at once, no wait
            solved = [each.solution for each in done if each.solution is not None]
            record_solutions(recording, solved, worker, task=Stage.OCR)
    return [
        Handoff(task.then, each.claim.row.id, each.claim.label)
        for each in done
        if each.solution is None
    ]


def _each_alone(task: StageTask, puzzle_ids: list[int]) -> None:
    """Hand each board on in a message of its own."""
    with autocommit(runtime.marker_sessions()) as session:
        released(session, task.step, puzzle_ids)
        handoffs = labelled(session, task.step, puzzle_ids)
    for handoff in handoffs:
        send_all(app, runtime.marker_sessions(), [handoff])
