"""Sending subjects on to their next step, after the transaction that made them wait for it.

The order is what makes it safe: commit (the subject waits, its message not yet sent), send,
then note it sent. A crash or a broker outage between the steps leaves a subject the recovery
sweep finds (never sent, or sent and lost) and sends again; a message sent twice is harmless,
since a task only works on a subject that still waits for it (``store.handover.claim``).
"""

from __future__ import annotations

from collections.abc import Sequence

from celery import Celery
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.jobs.table import Step, job_step
from sudoku_batch.store.db import autocommit, transaction
from sudoku_batch.store.handover import Handoff, labelled, sent


def task_args(message: Sequence[Handoff]) -> list[object]:
    """The arguments of the task one message sends: every subject's id in a list for a listed
    step (``JobStep.listed``: a page's boards go to one OCR task, which claims, reads and
    records them together), else the one subject's id."""
    ids = [handoff.subject_id for handoff in message]
    if job_step(message[0].step).listed:
        return [ids]
    [only] = ids
    return [only]


def send(queue: Celery, message: Sequence[Handoff]) -> None:
    """Send one message: hand-overs of one step, several only for a listed step."""
    first = message[0]
    label = first.label
    if len(message) > 1:  # a page's boards: "book.pdf p3 #0, #1, #2"
        label += "".join(f", #{handoff.label.rpartition(' #')[2]}" for handoff in message[1:])
    ids = ", ".join(str(handoff.subject_id) for handoff in message)
    # argsrepr: Flower shows where the work comes from, not just an id.
    queue.send_task(first.step, args=task_args(message), argsrepr=f"({ids}: {label})")


def hand_over(
    queue: Celery, sessions: sessionmaker[Session], step: Step, subject_ids: list[int]
) -> None:
    """Send ``step`` for each subject (committed as waiting for it), then note them sent."""
    if not subject_ids:
        return
    with transaction(sessions) as session:
        handoffs = labelled(session, step, subject_ids)
    send_all(queue, sessions, handoffs)


def send_all(queue: Celery, sessions: sessionmaker[Session], handoffs: list[Handoff]) -> None:
    """Send hand-overs whose subjects are committed as waiting for them (labelled by the
    caller, who has their rows at hand), then note them sent. A listed step's hand-overs go
    in one message: callers hand over one page's boards at a time."""
    steps = dict.fromkeys(handoff.step for handoff in handoffs)
    for step in steps:
        of_step = [handoff for handoff in handoffs if handoff.step == step]
        for message in [of_step] if job_step(step).listed else [[each] for each in of_step]:
            send(queue, message)
    for step in steps:
        ids = [handoff.subject_id for handoff in handoffs if handoff.step == step]
        # One statement: it needs no transaction of its own.
        with autocommit(sessions) as session:
            sent(session, step, ids)
