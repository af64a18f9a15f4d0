"""The object store: every file in an S3-compatible bucket (AWS S3, MinIO, Ceph, SeaweedFS)
under one key prefix, through boto3, so the API and workers on any host share no folder.

An unreachable or failing store (no connection, a timeout, a 5xx, a bucket that is gone,
credentials refused) raises ``StorageUnavailable``: the server retries it as a database
outage. boto3's own retries are kept short, so a task gives its worker back at once and
waits with the stage's backoff instead. Readers that open paths (a PDF, an archive) get a
copy in a bounded per-process cache: uploads are never stored again under the same key. A
cache that cannot be written is this host's disk's fault (``cache_fault``), said as such.
Messages name the store's endpoint by its host alone: its URL may carry credentials.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import re
import shutil
import socket
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO
from urllib.parse import urlsplit

import boto3
import botocore.exceptions
from boto3.s3.transfer import TransferConfig
from botocore.config import Config

from sudoku_batch.store.storage import StorageUnavailable, cache_fault

logger = logging.getLogger(__name__)

MARKER = ".sudoku-batch-store"
PROBE = ".sudoku-batch-probe"
CHUNK_BYTES = 1 << 20
# Short: a store that does not answer is an outage for the stage's backoff to wait out.
CLIENT_CONFIG = Config(
    connect_timeout=3,
    read_timeout=30,
    retries={"max_attempts": 3, "mode": "standard"},
    s3={"addressing_style": "path"},  # what MinIO, Ceph and SeaweedFS serve without DNS set-up
)
# One part in memory at a time: boto3's default reads up to ten parts ahead for its threads,
# so an upload's memory grew with the file.
PART_BYTES = 8 << 20
TRANSFER = TransferConfig(multipart_chunksize=PART_BYTES, use_threads=False)
NOT_FOUND = frozenset({"404", "NoSuchKey", "NotFound"})
DELETE_BATCH = 1000  # the most keys one DeleteObjects request takes
URL = re.compile(r"[a-zA-Z][\w+.-]*://[^\s\"'<>]+")


class S3Storage:
    def __init__(
        self,
        bucket: str,
        prefix: str,
        client_options: dict[str, Any],
        *,
        cache_dir: Path,
        cache_bytes: int,
    ):
        self.bucket = bucket
        self.prefix = f"{prefix}/" if prefix else ""
        self.where = f"s3://{bucket}/{self.prefix}"
        self.client_options = client_options
        self.endpoint = endpoint_host(client_options.get("endpoint_url"))
        self.client = boto3.session.Session().client("s3", config=CLIENT_CONFIG, **client_options)
        self.cache = DownloadCache(cache_dir, cache_bytes)

    def put_stream(self, key: str, stream: BinaryIO) -> None:
        # Multipart in bounded parts past boto3's threshold: never the whole file in memory;
        # an object appears only once complete.
        with self._faults(key):
            self.client.upload_fileobj(stream, self.bucket, self._key(key), Config=TRANSFER)

    def open_upload(self, key: str) -> StagedObject:
        return StagedObject(self, key)

    def move(self, source: str, target: str) -> None:
        # A server-side copy (in parts for large objects): the bytes never come here.
        with self._faults(source):
            self.client.copy(
                {"Bucket": self.bucket, "Key": self._key(source)},
                self.bucket,
                self._key(target),
                Config=TRANSFER,
            )
        self.remove([source])

    def put_bytes(self, key: str, data: bytes) -> str:
        with self._faults(key):
            put = self.client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data)
        return put["ETag"]

    def get_bytes(self, key: str) -> bytes:
        return self.get_versioned(key)[0]

    def get_versioned(self, key: str) -> tuple[bytes, str]:
        with self._faults(key):
            got = self.client.get_object(Bucket=self.bucket, Key=self._key(key))
            return got["Body"].read(), got["ETag"]

    def chunks(self, key: str) -> Iterator[bytes]:
        with self._faults(key):
            body = self.client.get_object(Bucket=self.bucket, Key=self._key(key))["Body"]
        return self._pieces(key, body)

    def _pieces(self, key: str, body: Any) -> Iterator[bytes]:
        with self._faults(key), body:
            yield from body.iter_chunks(CHUNK_BYTES)

    def local_file(self, key: str) -> Path:
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        with self.cache.adding(key) as target, self._faults(key):
            self.client.download_fileobj(self.bucket, self._key(key), target)
        return self.cache.path(key)

    def folder_file(self, key: str) -> Path | None:
        return None

    def exists(self, key: str) -> bool:
        return self.version(key) is not None

    def version(self, key: str) -> str | None:
        try:
            with self._faults(key):
                return self.client.head_object(Bucket=self.bucket, Key=self._key(key))["ETag"]
        except _Missing:
            return None

    def remove(self, keys: Iterable[str]) -> None:
        names = [{"Key": self._key(key)} for key in keys]
        for start in range(0, len(names), DELETE_BATCH):
            with self._faults(""):
                self.client.delete_objects(
                    Bucket=self.bucket,
                    Delete={"Objects": names[start : start + DELETE_BATCH], "Quiet": True},
                )

    def stale(self, prefix: str, before: datetime) -> list[str]:
        # An upload not finished is no object (a multipart upload left open: a bucket
        # lifecycle rule aborts those).
        found = []
        pages = self.client.get_paginator("list_objects_v2")
        with self._faults(prefix):
            for page in pages.paginate(Bucket=self.bucket, Prefix=self._key(prefix)):
                for stored in page.get("Contents", []):
                    if stored["LastModified"] < before:
                        found.append(stored["Key"].removeprefix(self.prefix))
        return sorted(found)

    def prepare(self) -> None:
        try:
            with self._faults(""):
                try:
                    self.client.head_bucket(Bucket=self.bucket)
                except botocore.exceptions.ClientError as error:
                    if _code(error) not in NOT_FOUND | {"NoSuchBucket"}:
                        raise
                    self.client.create_bucket(Bucket=self.bucket)
                self.client.put_object(
                    Bucket=self.bucket,
                    Key=self._key(MARKER),
                    Body=b"sudoku-batch's store: the API and every worker share it\n",
                )
        except StorageUnavailable as fault:
            logger.error("the store %s cannot be prepared: %s", self.where, fault.message)
        else:
            logger.info("store: %s at %s", self.where, self.endpoint)

    def problem(self) -> str | None:
        try:
            if self.version(MARKER) is None:
                return (
                    f"the store {self.where} is not the API's (it holds no {MARKER}): the API"
                    " and every worker must use one SUDOKU_BATCH_STORAGE_URL"
                )
            self.put_bytes(PROBE, b"probe")
        except StorageUnavailable as fault:
            return fault.message
        return None

    def _key(self, key: str) -> str:
        return self.prefix + key

    @contextmanager
    def _faults(self, key: str) -> Iterator[None]:
        """Every failure of the store as ``StorageUnavailable``; a key not stored as
        ``_Missing`` (itself one: the database says it was stored)."""
        try:
            yield
        except botocore.exceptions.ClientError as error:
            code = _code(error)
            if code in NOT_FOUND:
                raise _Missing(
                    f"{key} is not in the store {self.where}, though the database says it was"
                    " stored: the API and every worker must use one SUDOKU_BATCH_STORAGE_URL"
                ) from error
            raise StorageUnavailable(
                f"the store {self.where} at {self.endpoint} refused {key or 'a request'}"
                f" ({code}: {error.response.get('Error', {}).get('Message', '')})"
            ) from error
        except (botocore.exceptions.BotoCoreError, OSError) as error:
            raise StorageUnavailable(
                f"the store {self.where} at {self.endpoint} cannot be reached"
                f" ({_hosts_only(str(error))})"
            ) from error


class StagedObject:
    """An upload sent in ``PART_BYTES`` parts as it arrives (a multipart upload, begun once a
    first part is full; a smaller file is one put): one part in memory at a time, and the
    object appears only once complete."""

    def __init__(self, store: S3Storage, key: str):
        self.store, self.key = store, key
        self.part = io.BytesIO()
        self.upload_id: str | None = None
        self.parts: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        self.part.write(data)
        if self.part.tell() >= PART_BYTES:
            self._send_part()

    def _send_part(self) -> None:
        client, bucket, name = self.store.client, self.store.bucket, self.store._key(self.key)
        with self.store._faults(self.key):
            if self.upload_id is None:
                begun = client.create_multipart_upload(Bucket=bucket, Key=name)
                self.upload_id = begun["UploadId"]
            number = len(self.parts) + 1
            self.part.seek(0)  # sent as it is: no copy of the part
            sent = client.upload_part(
                Bucket=bucket,
                Key=name,
                UploadId=self.upload_id,
                PartNumber=number,
                Body=self.part,
            )
        self.parts.append({"PartNumber": number, "ETag": sent["ETag"]})
        self.part = io.BytesIO()

    def finish(self) -> None:
        if self.upload_id is None:
            self.store.put_bytes(self.key, self.part.getvalue())
            self.part = io.BytesIO()
            return
        if self.part.tell():
            self._send_part()
        with self.store._faults(self.key):
            self.store.client.complete_multipart_upload(
                Bucket=self.store.bucket,
                Key=self.store._key(self.key),
                UploadId=self.upload_id,
                MultipartUpload={"Parts": self.parts},
            )

    def abort(self) -> None:
        self.part = io.BytesIO()
        if self.upload_id is not None:
            with self.store._faults(self.key):
                self.store.client.abort_multipart_upload(
                    Bucket=self.store.bucket, Key=self.store._key(self.key), UploadId=self.upload_id
                )
            self.upload_id = None


class _Missing(StorageUnavailable):
    """A key the store does not hold."""


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def endpoint_host(url: str | None) -> str:
    """How messages name the store's endpoint: its host and port, never the user, password
    or query a URL may carry."""
    if not url:
        return "AWS S3"
    parts = urlsplit(url)
    host = parts.hostname or "the endpoint"
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{host}:{port}" if port else host


def _hosts_only(text: str) -> str:
    """``text`` with each URL in it (botocore names the endpoint's) cut to its host."""
    return URL.sub(lambda url: endpoint_host(url.group()), text)


def _code(error: botocore.exceptions.ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


class DownloadCache:
    """Files fetched from the store, at most ``limit`` bytes of them (the least recently used
    go first; the newest always stays, however large), in a folder of this process's own
    under ``root`` (``HOST-PID``), so no other process removes a file between its fetch and
    its use; the folders of this host's processes that have ended are removed when it is
    made."""

    def __init__(self, root: Path, limit: int):
        self.root = root
        self.folder = root / f"{socket.gethostname()}-{os.getpid()}"
        self.limit = limit

    def path(self, key: str) -> Path:
        # The name keeps the key's suffix: readers tell formats by it.
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]
        return self.folder / f"{digest}{PurePosixPath(key).suffix}"

    def get(self, key: str) -> Path | None:
        path = self.path(key)
        try:
            os.utime(path)  # most recently used
        except OSError:  # not cached, or a cache that cannot be read: fetched again
            return None
        return path

    @contextmanager
    def adding(self, key: str) -> Iterator[CacheFile]:
        """A file to write ``key``'s bytes to; kept (and older files evicted) only if the
        writing succeeded. The cache's own faults are raised as ``cache_fault``s."""
        try:
            if not self.folder.is_dir():
                self._remove_ended()
                self.folder.mkdir(parents=True)
            fd, temporary = tempfile.mkstemp(dir=self.folder, prefix=".partial-")
        except OSError as error:
            raise cache_fault(error) from error
        try:
            with os.fdopen(fd, "wb") as file:
                yield CacheFile(file)
            os.replace(temporary, self.path(key))
        except BaseException as failure:
            with suppress(OSError):
                os.unlink(temporary)
            if isinstance(failure, OSError):
                raise cache_fault(failure) from failure  # closing or renaming the file
            raise
        self._evict(keep=self.path(key))

    def _remove_ended(self) -> None:
        """Remove this host's folders whose process has ended (or whose pid is this one's
        again: what it holds is another process's)."""
        host, _, _ = self.folder.name.rpartition("-")
        for folder in self.root.glob("*-*"):
            # Exactly this host's: another's name may begin with this one's and a hyphen.
            owner, _, pid = folder.name.rpartition("-")
            if owner != host or not pid.isdigit():
                continue
            if int(pid) == os.getpid() or not _running(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)

    def _evict(self, keep: Path) -> None:
        files = []
        for entry in os.scandir(self.folder):
            if entry.is_file() and not entry.name.startswith(".partial-"):
                stat = entry.stat()
                files.append((stat.st_mtime_ns, stat.st_size, Path(entry.path)))
        total = sum(size for _, size, _ in files)
        for _, size, path in sorted(files):
            if total <= self.limit:
                break
            if path != keep:
                path.unlink(missing_ok=True)
                total -= size


class CacheFile:
    """A cache file being written, for boto3 to download into: a fault of writing it is the
    cache's (``cache_fault``), so the store's fault handling never takes it for the store's."""

    def __init__(self, file: BinaryIO):
        self.file = file

    def write(self, data: bytes) -> int:
        try:
            return self.file.write(data)
        except OSError as error:
            raise cache_fault(error) from error

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self.file.seek(offset, whence)

    def tell(self) -> int:
        return self.file.tell()

    def seekable(self) -> bool:
        return True
