"""A small filesystem of its own (a tmpfs) to fill or make read-only: the kernel's own ENOSPC
and EROFS, not a stand-in. Mounting needs root, as on the CI machine; elsewhere the tests
that need it skip, and under CI=true they fail."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.disk_full import fill  # noqa: F401 - with the mount, what the tests use


@contextmanager
def small_disk(folder: Path, size: str) -> Iterator[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        reason = f"cannot mount a tmpfs (root needed): {mounted.stderr.strip()}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{reason} (CI=true: must not be skipped)")
        pytest.skip(reason)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=True)


def remount(folder: Path, mode: str) -> None:
    """``mode``: ``ro`` or ``rw``."""
    subprocess.run(["mount", "-o", f"remount,{mode}", str(folder)], check=True)
