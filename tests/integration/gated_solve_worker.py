"""A real Celery worker on the solve queue alone whose solve step, once begun, notes the puzzle
in a file and waits until a gate file exists, so a test can see what other workers finish
while it solves.

Run as ``python -m tests.integration.gated_solve_worker NAME BEGUN GATE``, settings in the
environment.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from sudoku_batch.workers.app import app
from sudoku_batch.workers.tasks import solve


def main(name: str, begun: Path, gate: Path) -> None:
    solve_reading = solve.solve_reading_step

    def gated(*args: object, **kwargs: object) -> object:
        with begun.open("a") as notes:
            notes.write("begun\n")
        while not gate.exists():
            time.sleep(0.1)
        return solve_reading(*args, **kwargs)

    solve.solve_reading_step = gated
    app.worker_main(
        [
            "worker",
            "--pool=solo",
            "--queues=solve",
            f"--hostname={name}",
            "--loglevel=INFO",
            "--without-mingle",
            "--without-gossip",
        ]
    )


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]))
