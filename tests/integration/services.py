"""Private Redis and PostgreSQL servers that a test may stop and start again (the machine's
shared ones must never be touched): each on a free port, its files in the test's temp dir."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.integration.conftest import free_port, in_ci, skip_or_fail


def _wait_for(check: list[str], what: str, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while subprocess.run(check, capture_output=True).returncode != 0:
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not come up")
        time.sleep(0.2)


class PrivateRedis:
    """``redis-server`` on its own port and dir; ``persistent``: append-only file on."""

    def __init__(self, folder: Path, persistent: bool, port: int | None = None):
        if shutil.which("redis-server") is None:
            skip_or_fail("redis-server is not installed")
        self.folder = folder
        self.port = port or free_port()
        self.persistent = persistent
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)

    def start(self) -> None:
        persistence = ["--appendonly", "yes", "--appendfsync", "always"]
        if not self.persistent:
            persistence = ["--appendonly", "no", "--save", ""]
        log = (self.folder / "redis.log").open("ab")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--dir", str(self.folder), *persistence],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        _wait_for(["redis-cli", "-p", str(self.port), "ping"], "private Redis")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        self.process = None


def _postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


class PrivatePostgres:
    """A throw-away PostgreSQL cluster (``initdb``, ``pg_ctl``) on its own port, run as the
    ``postgres`` user when the tests run as root (initdb refuses root)."""

    def __init__(self) -> None:
        binaries = _postgres_bin()
        if binaries is None:
            reason = "PostgreSQL server binaries (initdb, pg_ctl) are not installed"
            if in_ci():
                pytest.fail(reason)
            pytest.skip(reason)
        self.bin = binaries
        self.port = free_port()
        # Its own temp dir: pytest's are private to the user running the tests, which the
        # server's user cannot enter.
        folder = Path(tempfile.mkdtemp(prefix="sudoku-batch-pg-"))
        self.folder = folder
        self.data = folder / "pgdata"
        self.log = folder / "postgres.log"
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(folder, "postgres")
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
            "-E", "UTF8", "--no-sync",
        )  # fmt: skip

    def _run(self, *argv: str) -> None:
        result = subprocess.run([*self.as_user, *argv], capture_output=True, text=True)
        if result.returncode != 0:
            pytest.fail(f"{argv[0]} failed: {result.stderr}")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                  "-o", options, "-w", "start")  # fmt: skip
        _wait_for(
            [str(self.bin / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)],
            "private PostgreSQL",
        )

    def stop(self) -> None:
        subprocess.run(
            [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop"],
            capture_output=True,
        )

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
