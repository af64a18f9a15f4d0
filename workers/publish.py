"""Sending subjects on to their next step, after the transaction that made them wait for it.

The order is what makes it safe: commit (the subject waits, its message not yet sent), send,
then note it sent. A crash or a broker outage between the steps leaves a subject the recovery
sweep finds (never sent, or sent and lost) and sends again; a message sent twice is harmless,
since a task only works on a subject that still waits for it (``store.handover.claim``).
"""

from __future__ import annotations

from celery import Celery
from sqlalchemy.orm import Session, sessionmaker

from store.db import autocommit, transaction
from store.handover import WAITING, Handoff, Step, labelled, sent


def send(queue: Celery, handoff: Handoff) -> None:
    # argsrepr: Flower shows where the work comes from, not just an id.
    queue.send_task(
        handoff.step,
        args=[handoff.subject_id],
        argsrepr=f"({handoff.subject_id}: {handoff.label})",
    )


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
    caller, who has their rows at hand), then note them sent."""
    for handoff in handoffs:
        send(queue, handoff)
    for step in dict.fromkeys(handoff.step for handoff in handoffs):
        ids = [handoff.subject_id for handoff in handoffs if handoff.step == step]
        # One statement: it needs no transaction of its own.
        with autocommit(sessions) as session:
            sent(session, WAITING[step].model, ids)
