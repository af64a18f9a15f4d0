"""``GET /batches/{id}``: a batch's status, answered at once or held until its work moves.

A client following a batch sends the ``progress`` token of its last answer as ``since`` and
how long it may wait as ``wait``; the answer is held until the batch's token differs (or the
batch is finished, or the wait is over), checked with one cheap statement every
CHECK_SECONDS (``store.progress_token``). So a follower sees each move within that, with
about one request per move instead of one per poll. ``pace`` paces a follower from here: a
batch that moved is answered no sooner than ``pace`` seconds after the request came, one that
finished at once, so a follower that asks again at once sees the end within CHECK_SECONDS
while asking at most once a ``pace``. Between checks the request holds neither a database
connection (the pool is small) nor a thread: the database work runs in the thread pool, each
piece in a session of its own, and the waiting is ``asyncio.sleep``.
"""

from __future__ import annotations

import asyncio
import time
from uuid import UUID

from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from sudoku_batch.api.deps import owned_batch
from sudoku_batch.api.schemas import BatchStatus
from sudoku_batch.store.models import Batch
from sudoku_batch.store.progress import run_states, stages_of, subject_states
from sudoku_batch.store.progress_token import Progress, batch_progress, progress_of
from sudoku_batch.store.results import state_counts

CHECK_SECONDS = 0.25
MAX_WAIT_SECONDS = 30.0


async def batch_status(
    sessions: sessionmaker[Session],
    batch_id: UUID,
    key_id: int,
    since: str | None = None,
    wait: float = 0.0,
    pace: float = 0.0,
) -> BatchStatus:
    """The status of the key's batch ``batch_id`` (404 if it has none); with ``since`` and
    ``wait``, once it is finished, or its progress token differs from ``since`` and ``pace``
    seconds have passed, or ``wait`` seconds have passed."""
    if since is None or wait <= 0:
        return await run_in_threadpool(_status_now, sessions, batch_id, key_id)
    asked = time.monotonic()
    batch, progress = await run_in_threadpool(_owned_progress, sessions, batch_id, key_id)
    while not progress.finished:
        held = time.monotonic() - asked
        if held >= wait or (progress.token != since and held >= pace):
            break
        await asyncio.sleep(min(CHECK_SECONDS, wait - held))
        progress = await run_in_threadpool(_progress, sessions, batch.id)
    return await run_in_threadpool(_status_of, sessions, batch)


def _status_now(sessions: sessionmaker[Session], batch_id: UUID, key_id: int) -> BatchStatus:
    with sessions() as db:
        return _answer(db, owned_batch(db, batch_id, key_id))


def _owned_progress(
    sessions: sessionmaker[Session], batch_id: UUID, key_id: int
) -> tuple[Batch, Progress]:
    with sessions() as db:
        batch = owned_batch(db, batch_id, key_id)
        return batch, batch_progress(db, batch.id)


def _progress(sessions: sessionmaker[Session], batch_id: int) -> Progress:
    # Closing the session ends its transaction: the connection goes back to the pool.
    with sessions() as db:
        return batch_progress(db, batch_id)


def _status_of(sessions: sessionmaker[Session], batch: Batch) -> BatchStatus:
    with sessions() as db:
        return _answer(db, batch)


def _answer(db: Session, batch: Batch) -> BatchStatus:
    """The full answer: two statements beside the batch's own row."""
    subjects = subject_states(db, batch.id)
    runs = run_states(db, batch.id)
    return BatchStatus(
        **state_counts(subjects),
        batch_id=batch.public_id,
        label=batch.label,
        created_at=batch.created_at,
        stages={stage: vars(p) for stage, p in stages_of(subjects, runs).items()},
        progress=progress_of(subjects, runs).token,
    )
