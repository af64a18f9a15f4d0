"""Following a batch through the API until it is finished: ``submit --wait`` and
``bench.throughput_server``.

Each request after the first sends the last answer's ``progress`` as ``since``, so the API
holds it until the batch moves or ends (long polling, up to HOLD_SECONDS), and ``pace``, so
the API answers a batch that moved no sooner than FOLLOW_SECONDS after the request came: a
busy batch costs about two requests a second, a still one a request every HOLD_SECONDS, and
the end is answered as soon as the API sees it (``api.batch_status``), so the follower asks
again at once. An API without progress tokens is simply asked every FOLLOW_SECONDS.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

FOLLOW_SECONDS = 0.5
# Below the client's read timeout (30 s) and the API's longest wait (30 s).
HOLD_SECONDS = 20.0

Status = dict[str, Any]


def follow_batch(
    ask: Callable[[dict[str, Any]], Status],
    seen: Callable[[Status], None] = lambda _status: None,
) -> Status:
    """Ask ``ask(params)`` for the batch's status (query parameters ``params``) until it is
    finished, calling ``seen`` with every answer; the last answer."""
    params: dict[str, Any] = {}
    while True:
        asked = time.monotonic()
        status = ask(params)
        seen(status)
        if status["finished"]:
            return status
        token = status.get("progress")
        if token:
            params = {"since": token, "wait": HOLD_SECONDS, "pace": FOLLOW_SECONDS}
        else:
            params = {}
            time.sleep(max(0.0, asked + FOLLOW_SECONDS - time.monotonic()))
