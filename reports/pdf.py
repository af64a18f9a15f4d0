"""HTML to PDF by printing it in headless Chromium (Debian's ``chromium`` package): the
report's layout is the browser's, so the PDF looks like the page."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
# No network, no background services, a throwaway profile: a print job and nothing else.
HEADLESS_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
PRINT_SECONDS = 120


class ChromiumMissing(RuntimeError):
    pass


def find_chromium() -> str | None:
    return next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)


def chromium_command(*arguments: str, profile: Path) -> list[str]:
    chromium = find_chromium()
    if chromium is None:
        raise ChromiumMissing(
            "no headless Chromium found (install Debian's chromium package to print PDFs)"
        )
    return [chromium, *HEADLESS_FLAGS, f"--user-data-dir={profile}", *arguments]


def print_to_pdf(html_path: Path, pdf_path: Path) -> None:
    """Print ``html_path`` to ``pdf_path``; raises ``ChromiumMissing`` when there is none."""
    with tempfile.TemporaryDirectory(prefix="sudoku-batch-chromium-") as profile:
        command = chromium_command(
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf_path.resolve()}",
            html_path.resolve().as_uri(),
            profile=Path(profile),
        )
        subprocess.run(command, check=True, capture_output=True, timeout=PRINT_SECONDS)
    if not pdf_path.is_file():
        raise RuntimeError(f"chromium printed no PDF to {pdf_path}")
