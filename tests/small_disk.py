"""A small filesystem of its own (a tmpfs) to fill or make read-only: the kernel's own ENOSPC
and EROFS, not a stand-in. Mounting needs root, as on the CI machine; elsewhere the tests
that need it skip, and under CI=true they fail."""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


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


def fill(folder: Path) -> Path:
    """Write a file until the kernel says no space is left; the file, to free it later."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    chunk = b"\0" * 2**20
    try:
        while True:
            os.write(fd, chunk)
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    finally:
        os.close(fd)
    return filler


def remount(folder: Path, mode: str) -> None:
    """``mode``: ``ro`` or ``rw``."""
    subprocess.run(["mount", "-o", f"remount,{mode}", str(folder)], check=True)
