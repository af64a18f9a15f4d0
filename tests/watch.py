"""Run a command and watch its process tree: the peak of the summed resident memory."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass

import psutil

SAMPLE_SECONDS = 0.05


@dataclass
class Watched:
    returncode: int
    stdout: str
    stderr: str
    peak_rss: int  # bytes, the whole tree at its largest sample


def tree_rss(process: psutil.Process) -> int:
    total = 0
    for each in [process, *process.children(recursive=True)]:
        try:
            total += each.memory_info().rss
        except psutil.Error:
            pass  # exited between listing and asking
    return total


def run_watched(
    argv: list[str],
    timeout: float,
    env: dict[str, str] | None = None,
    while_running: Callable[[psutil.Popen], None] | None = None,
) -> Watched:
    """Run ``argv``; ``while_running`` is called on each sample (e.g. to kill a worker)."""
    process = psutil.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    peak, deadline = 0, time.monotonic() + timeout
    import threading

    output: dict[str, str] = {}
    reader = threading.Thread(
        target=lambda: output.update(zip(("out", "err"), process.communicate(), strict=True))
    )
    reader.start()
    while reader.is_alive():
        try:
            peak = max(peak, tree_rss(process))
            if while_running is not None:
                while_running(process)
        except psutil.Error:
            pass
        if time.monotonic() > deadline:
            process.kill()
            reader.join()
            raise TimeoutError(f"{argv} ran longer than {timeout} s:\n{output.get('err')}")
        time.sleep(SAMPLE_SECONDS)
    return Watched(process.returncode, output["out"], output["err"], peak)
