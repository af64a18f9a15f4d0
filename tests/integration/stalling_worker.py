"""A real prefork worker on the rectify queue whose page loading hangs through its soft time
limit to its hard one (``hang``) or kills its process (``die``), each call noted in a file; for
the tests of what becomes of such tasks.

Run as ``python -m tests.integration.stalling_worker MODE LOG``, settings in the environment.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from celery.exceptions import SoftTimeLimitExceeded

from sudoku_batch.workers.app import app
from sudoku_batch.workers.tasks import rectify

TIME_LIMITS = (2, 4)  # soft, hard: Celery kills at the hard limit only after the soft one


def main(mode: str, log: Path) -> None:
    def stalled(*_: object) -> None:
        with log.open("a") as calls:
            calls.write(f"{os.getpid()}\n")
        while mode == "hang":
            try:
                time.sleep(3600)
            except SoftTimeLimitExceeded:
                pass  # as native code would: the soft limit never reaches Python
        os._exit(1)  # as the kernel's OOM killer would leave it, with no word to the parent

    rectify.load_page_step = stalled
    task = rectify.rectify_page_boards
    # Short limits and one quick retry: the real ones (minutes, 8 retries) are for real pages.
    if mode == "hang":
        # Not when dying: the pool declares a dead process's task lost only after 10 s.
        task.soft_time_limit, task.time_limit = TIME_LIMITS
    task.max_retries = 1
    task.default_retry_delay = 1
    app.worker_main(
        [
            "worker",
            "--pool=prefork",
            "--concurrency=1",
            "--queues=rectify",
            "--loglevel=INFO",
            "--without-mingle",
            "--without-gossip",
        ]
    )


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
