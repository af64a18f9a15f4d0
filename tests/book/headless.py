"""Opening a page in headless Chromium (Debian's package): its DOM, its console messages and a
screenshot, with no network and a throwaway profile."""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sudoku_batch.reports.pdf import chromium_command


@dataclass(frozen=True)
class Opened:
    dom: str
    console: list[str]  # every message the page logged to its console (errors included)


def open_page(html: Path, screenshot: Path, width: int = 1200, height: int = 1600) -> Opened:
    """Load ``html``; its DOM and console come from a --dump-dom run with logging on stderr,
    the screenshot from a second run (Chromium does one of the two per launch)."""
    url = html.resolve().as_uri()
    with tempfile.TemporaryDirectory(prefix="chromium-test-") as profile:
        dumped = subprocess.run(
            chromium_command("--enable-logging=stderr", "--v=0", "--dump-dom", url,
                             profile=Path(profile) / "dom"),
            capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        subprocess.run(
            chromium_command(f"--window-size={width},{height}", f"--screenshot={screenshot}",
                             "--hide-scrollbars", url, profile=Path(profile) / "shot"),
            capture_output=True, timeout=120, check=True,
        )  # fmt: skip
    console = [line for line in dumped.stderr.splitlines() if ":CONSOLE" in line]
    return Opened(dumped.stdout, console)
