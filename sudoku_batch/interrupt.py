"""Ctrl-C and SIGTERM as a request to stop, not an exception in the middle of a write.

While ``stop_requested()`` is active, the first SIGINT or SIGTERM only sets a flag: the
runner stops starting pages, marks the unfinished ones ``interrupted`` and still writes its
results. A second Ctrl-C raises ``KeyboardInterrupt`` as usual, for a user in a hurry.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopFlag:
    def __init__(self) -> None:
        self.signal: int | None = None

    def __call__(self) -> bool:
        return self.signal is not None


@contextmanager
def stop_requested() -> Iterator[StopFlag]:
    flag = StopFlag()
    if threading.current_thread() is not threading.main_thread():
        yield flag  # signal handlers can only be set from the main thread
        return

    def handle(number: int, _frame: object) -> None:
        flag.signal = number
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C is final

    previous = {number: signal.signal(number, handle) for number in SIGNALS}
    try:
        yield flag
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
