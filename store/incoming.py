"""Staged uploads: the API streams a request's files into the store under ``incoming/<id>/``
(``api.streamed_form``) until a batch claims them (moved under the batch) or the request fails
(removed). An API that crashed in between leaves them there; the recovery sweep
(``workers.sweep``) removes those older than ``GRACE``.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from sudoku_batch.store.models import utc_now
from sudoku_batch.store.storage import Storage

logger = logging.getLogger(__name__)

INCOMING = "incoming/"
# Longer than any upload takes to arrive and be claimed (a file being written is touched by
# each write): a file staged this long ago belongs to no request any more.
GRACE = timedelta(hours=1)


def request_folder() -> str:
    """A folder of its own for one request's staged files."""
    return f"{INCOMING}{uuid.uuid4().hex}"


def remove_orphans(storage: Storage, now: datetime | None = None) -> int:
    """Remove the staged uploads older than ``GRACE``; how many there were."""
    orphans = storage.stale(INCOMING, (now or utc_now()) - GRACE)
    if orphans:
        storage.remove(orphans)
        logger.warning("removed %d staged upload(s) no request claimed", len(orphans))
    return len(orphans)
