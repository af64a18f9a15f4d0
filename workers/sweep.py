"""The recovery sweep and worker heartbeats: what re-queues work no message will reach.

Every worker's main process runs a timer thread (started when the worker is ready) that, every
``SWEEP_SECONDS``, notes the worker alive in ``worker_heartbeats`` and sweeps once: it sends
again every subject ``store.handover.stranded`` finds (never sent; sent and lost with Redis;
claimed by a worker that stopped beating; claimed longer ago than any run and retry delay),
and notes it sent; it also removes the uploads a crashed API left staged
(``store.incoming``). Each worker sweeps, so the sweep lives as long as any worker does; the
sweeps split the stranded rows between them (``FOR UPDATE SKIP LOCKED``), and a subject sent
twice is harmless (a task works only on a subject that still waits for it).
``sudoku-batch recover`` runs one sweep on demand.

Why not Celery beat: beat is one more process to keep exactly one of, and a periodic task is
itself a message, lost with the very outages the sweep is for.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from amqp.exceptions import ChannelError
from celery import Celery
from celery.signals import worker_ready, worker_shutdown
from sqlalchemy import delete
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.jobs.table import Step, job_steps, queues
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import transaction
from sudoku_batch.store.handover import Deadlines, Handoff, sent_again, stranded
from sudoku_batch.store.incoming import remove_orphans
from sudoku_batch.store.models import WorkerHeartbeat, utc_now
from sudoku_batch.workers import runtime
from sudoku_batch.workers.publish import send

logger = logging.getLogger(__name__)

RETRY_MARGIN = 60.0  # seconds beyond the longest task and the longest outage retry delay
FORGET_WORKERS_AFTER = timedelta(days=1)
SWEEP_BATCH = 2000


def deadlines(settings: Settings) -> Deadlines:
    from sudoku_batch.workers.app import longest_task

    reclaim = settings.reclaim_after or (
        longest_task(settings) + settings.outage_backoff_max + RETRY_MARGIN
    )
    return Deadlines(
        lost_after=timedelta(seconds=settings.lost_after),
        dead_after=timedelta(seconds=settings.dead_after),
        reclaim_after=timedelta(seconds=reclaim),
    )


@dataclass(frozen=True)
class SweepReport:
    sent: dict[str, int]  # step -> subjects sent again

    @property
    def total(self) -> int:
        return sum(self.sent.values())


def empty_steps(queue: Celery) -> set[Step]:
    """Steps whose queue holds no message now: a subject sent to one long ago and never
    started was lost (e.g. with a Redis that kept nothing over a restart)."""
    with queue.connection_for_write() as connection:
        channel = connection.default_channel
        sizes = {name: _size(channel, name) for name in queues()}
    return {row.step for row in job_steps() if sizes[row.queue] == 0}


def _size(channel: Any, name: str) -> int:
    try:
        return channel.queue_declare(queue=name, passive=True).message_count
    except ChannelError:
        return 0  # Redis drops an empty list: no such queue is an empty one


def sweep_once(
    queue: Celery, sessions: sessionmaker[Session], settings: Settings, *, everything: bool = False
) -> SweepReport:
    """Send every stranded subject again; ``everything``: every waiting subject not being
    worked on by a live worker, whatever its queue holds (for ``recover --all``)."""
    limits = deadlines(settings)
    steps = {row.step for row in job_steps()} if everything else empty_steps(queue)
    if everything:
        limits = Deadlines(timedelta(0), limits.dead_after, limits.reclaim_after)
    # One batch per sweep (the next sweep takes the rest): sent in the transaction that holds
    # their rows, so a send that fails (broker down) leaves them stranded for the next one.
    with transaction(sessions) as session:
        handoffs = stranded(session, limits, steps, limit=SWEEP_BATCH)
        for handoff in handoffs:
            send(queue, [handoff])
        _note_sent(session, handoffs)
    counts: dict[str, int] = {}
    for handoff in handoffs:
        counts[handoff.step] = counts.get(handoff.step, 0) + 1
    if counts:
        logger.warning("recovery sweep sent stranded work again: %s", counts)
    return SweepReport(counts)


def _note_sent(session: Session, handoffs: list[Handoff]) -> None:
    for row in job_steps():
        ids = [h.subject_id for h in handoffs if h.step == row.step]
        sent_again(session, row.step, ids)


def beat(sessions: sessionmaker[Session], incarnation: str, hostname: str) -> None:
    """Note this worker incarnation alive now; forget incarnations silent for a day."""
    now = utc_now()
    with transaction(sessions) as session:
        values = {"incarnation": incarnation, "hostname": hostname, "last_seen": now}
        insert = pg_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
        session.execute(
            insert(WorkerHeartbeat)
            .values(**values, started_at=now)
            .on_conflict_do_update(index_elements=["incarnation"], set_={"last_seen": now})
        )
        session.execute(
            delete(WorkerHeartbeat).where(WorkerHeartbeat.last_seen < now - FORGET_WORKERS_AFTER)
        )


class SweepTimer(threading.Thread):
    """Beat and sweep every ``settings.sweep_seconds`` until stopped; outages are logged and
    outlasted (the next round tries again)."""

    def __init__(self, queue: Celery, hostname: str):
        super().__init__(name="sudoku-batch-sweep", daemon=True)
        self.queue = queue
        self.hostname = hostname
        self.stopped = threading.Event()

    def run(self) -> None:
        settings = runtime.settings()
        while not self.stopped.is_set():
            try:
                beat(runtime.sessions(), runtime.incarnation(), self.hostname)
                sweep_once(self.queue, runtime.sessions(), settings)
                remove_orphans(runtime.artifacts().storage)
            except Exception:
                logger.warning("heartbeat or recovery sweep failed; retrying", exc_info=True)
            self.stopped.wait(settings.sweep_seconds)


_timer: SweepTimer | None = None


@worker_ready.connect
def _start_timer(sender: object = None, **_: object) -> None:
    global _timer
    from sudoku_batch.workers.app import app

    _timer = SweepTimer(app, getattr(sender, "hostname", "worker"))
    _timer.start()


@worker_shutdown.connect
def _stop_timer(**_: object) -> None:
    if _timer is not None:
        _timer.stopped.set()
