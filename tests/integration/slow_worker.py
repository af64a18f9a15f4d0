"""A real Celery worker on the ingest and solve queues whose solve step takes a set time, so a
fault can strike in the middle of a batch of quick text puzzles; each solve run noted in a
file (to count redundant runs).

Run as ``python -m tests.integration.slow_worker NAME SECONDS LOG``, settings in the
environment.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from sudoku_batch.workers.app import app
from sudoku_batch.workers.tasks import solve_text


def main(name: str, seconds: float, log: Path) -> None:
    solve = solve_text.solve_text_step

    def slow_solve(*args: object, **kwargs: object) -> object:
        with log.open("a") as calls:
            calls.write(f"{os.getpid()}\n")
        time.sleep(seconds)
        return solve(*args, **kwargs)

    solve_text.solve_text_step = slow_solve
    app.worker_main(
        [
            "worker",
            "--pool=prefork",
            "--concurrency=2",
            "--queues=ingest,solve",
            f"--hostname={name}",
            "--loglevel=INFO",
            "--without-mingle",
            "--without-gossip",
        ]
    )


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), Path(sys.argv[3]))
