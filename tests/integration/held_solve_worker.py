"""A real Celery worker whose solve steps (of a read puzzle and of a text one), once begun, note
the process id in a file and are held: for a set time (``--seconds``), so a fault can strike in
the middle of a batch and redundant runs be counted, or until a gate file exists (``--gate``), so
a test can see what other workers finish meanwhile.

Run as ``python -m tests.integration.held_solve_worker --notes FILE (--seconds S | --gate FILE)
WORKER_OPTION...``, the options after the hold passed to ``celery worker`` as they are; settings
in the environment.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path

from sudoku_batch.workers.app import app
from sudoku_batch.workers.tasks import solve, solve_text


def held(
    step: Callable[..., object], notes: Path, hold: Callable[[], None]
) -> Callable[..., object]:
    """``step`` noting the process in ``notes`` and calling ``hold()`` before it runs."""

    def held_step(*args: object, **kwargs: object) -> object:
        with notes.open("a") as calls:
            calls.write(f"{os.getpid()}\n")
        hold()
        return step(*args, **kwargs)

    return held_step


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=Path, required=True)
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--seconds", type=float)
    how.add_argument("--gate", type=Path)
    options, worker_options = parser.parse_known_args()

    def hold() -> None:
        if options.gate is None:
            time.sleep(options.seconds)
            return
        while not options.gate.exists():
            time.sleep(0.1)

    solve.solve_reading_step = held(solve.solve_reading_step, options.notes, hold)
    solve_text.solve_text_step = held(solve_text.solve_text_step, options.notes, hold)
    app.worker_main(["worker", *worker_options])


if __name__ == "__main__":
    main()
