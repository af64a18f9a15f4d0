"""Where every stored file lives: a small interface with two implementations, chosen by
``SUDOKU_BATCH_STORAGE_URL`` (the settings' ``storage_location``).

- ``file:///abs/path`` (the default: the data folder): ``store.local_storage.LocalFolder``,
  the only one the embedded runner needs;
- ``s3://BUCKET/PREFIX``: ``store.s3_storage.S3Storage``, any S3-compatible object store
  (AWS S3, MinIO, Ceph, SeaweedFS), so the API and workers on different hosts share no folder.

Keys are relative, ``/``-separated names (``store.artifacts`` makes them); the database and
Celery messages hold keys, never a host's paths. A store that cannot be used (unreachable,
failing, full, missing a file the database says is stored) raises ``StorageUnavailable``: the
deployment's fault, never an input's, which the server retries as it does a database outage
and the embedded runner stops on.
"""

from __future__ import annotations

import errno
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import BinaryIO, Protocol

from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.settings import Settings


class StorageUnavailable(SudokuBatchError):
    """The store cannot be used: missing, unreachable, failing, read-only, or without a file
    the database says is stored in it (a worker whose store is not the API's)."""

    code = "storage_unavailable"


class StorageFull(StorageUnavailable):
    """No space left (or the quota reached) on the data folder's filesystem."""

    code = "storage_full"


class CacheUnwritable(StorageUnavailable):
    """This host's folder of files fetched from object storage cannot be written: the local
    disk's fault, not the store's."""

    code = "cache_unwritable"


NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})
# Faults of the disk or of how it is mounted, whatever file is written or read.
STORAGE_FAULTS = NO_SPACE | {errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO, errno.ENOENT}

# How messages name a local folder: by its role, never its path, for they reach the API's
# clients (and /health, which needs no key) and the rows of results.
DATA_FOLDER = "the data folder (SUDOKU_BATCH_DATA_DIR, or a file:// SUDOKU_BATCH_STORAGE_URL)"
OUTPUT_FOLDER = "the output folder"
CACHE_FOLDER = "the download cache of object storage (storage-cache in the data folder)"


def storage_fault(error: OSError, folder: str = DATA_FOLDER) -> StorageUnavailable | None:
    """The storage fault an ``OSError`` in ``folder`` (``DATA_FOLDER`` or ``OUTPUT_FOLDER``)
    is, or None if it is none."""
    if error.errno in NO_SPACE:
        return StorageFull(f"no space left in {folder}: free some space")
    if error.errno in STORAGE_FAULTS:
        return StorageUnavailable(f"{folder} cannot be written ({error.strerror})")
    return None


def cache_fault(error: OSError) -> StorageUnavailable:
    """The fault an ``OSError`` writing ``CACHE_FOLDER`` is: this host's disk, never the
    store."""
    if error.errno in NO_SPACE:
        return StorageFull(f"no space left for {CACHE_FOLDER}: free some space")
    return CacheUnwritable(f"{CACHE_FOLDER} cannot be written ({error.strerror or error})")


class StagedUpload(Protocol):
    """A file being stored as it arrives: nothing is stored under its key until ``finish``;
    ``abort`` leaves nothing behind."""

    def write(self, data: bytes) -> None: ...

    def finish(self) -> None: ...

    def abort(self) -> None: ...


class Storage(Protocol):
    """What the rest of sudoku-batch asks of a store."""

    def open_upload(self, key: str) -> StagedUpload:
        """Start storing a file under ``key`` piece by piece (an upload as it arrives)."""

    def move(self, source: str, target: str) -> None:
        """Store ``source``'s file under ``target`` instead (a staged upload claimed)."""

    def put_stream(self, key: str, stream: BinaryIO) -> None:
        """Store a stream under ``key`` as it is read, never held whole in memory; a failed
        write leaves no partial file under ``key``."""

    def put_bytes(self, key: str, data: bytes) -> str:
        """Store ``data`` under ``key``; returns the stored file's ``version``."""

    def get_bytes(self, key: str) -> bytes:
        """A stored file's bytes; ``StorageUnavailable`` if it is not stored."""

    def get_versioned(self, key: str) -> tuple[bytes, str]:
        """A stored file's bytes and the ``version`` they are, read together."""

    def chunks(self, key: str) -> Iterator[bytes]:
        """A stored file in pieces, to serve it without holding it whole; the store is asked
        (and ``StorageUnavailable`` raised) before the first piece is yielded."""

    def local_file(self, key: str) -> Path:
        """A path on this host holding the stored file, for readers that open paths (PDFs,
        archives): the file itself in a folder, else a copy in a bounded cache."""

    def folder_file(self, key: str) -> Path | None:
        """The file's own path when the store is a local folder, else None."""

    def exists(self, key: str) -> bool: ...

    def version(self, key: str) -> str | None:
        """What changes when ``key`` is stored again (None if it is not stored): lets a cache
        serve a file only while it is the one it was made from."""

    def remove(self, keys: Iterable[str]) -> None:
        """Remove stored files; missing ones are no error."""

    def stale(self, prefix: str, before: datetime) -> list[str]:
        """The keys under ``prefix`` last written before ``before``, with any file left half
        written there (by a writer that died), for a sweep to remove."""

    def prepare(self) -> None:
        """Make and mark the store if missing (the API's start); a failure is logged, and
        ``problem`` reports it."""

    def problem(self) -> str | None:
        """What keeps the store from being used (``/health``, ``worker --ping``), or None."""


def open_storage(settings: Settings) -> Storage:
    """The store ``settings`` name."""
    location = settings.storage_location()
    if location.scheme == "s3":
        from sudoku_batch.store.s3_storage import S3Storage  # boto3 loads only where S3 is used

        return S3Storage(
            location.bucket,
            location.prefix,
            settings.s3_client_options(),
            cache_dir=settings.storage_cache_dir(),
            cache_bytes=int(settings.storage_cache_mb * 2**20),
        )
    from sudoku_batch.store.local_storage import LocalFolder

    return LocalFolder(location.folder)
