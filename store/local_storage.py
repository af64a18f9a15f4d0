"""The local-folder store: every file under one folder (the data dir, or an embedded run's
output folder). Files are written to a temporary name and renamed, so a redelivered task
never leaves a half-written file behind. A folder that cannot be written (no space left,
read-only, missing) or that lacks a file the database says is stored raises
``StorageUnavailable`` (``StorageFull`` for no space)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

from sudoku_batch.store import data_folder
from sudoku_batch.store.storage import DATA_FOLDER, OUTPUT_FOLDER, StorageUnavailable, storage_fault

CHUNK_BYTES = 1 << 20


class LocalFolder:
    """Files under ``folder``. ``make_folder``: a write makes ``folder`` if missing (a run's
    own output folder); else a missing one is ``StorageUnavailable`` (the API makes the
    server's, and a worker must never write into an empty folder in its place)."""

    def __init__(self, folder: Path, *, make_folder: bool = False):
        self.folder = folder
        self.make_folder = make_folder
        self.name = OUTPUT_FOLDER if make_folder else DATA_FOLDER  # for messages

    def put_stream(self, key: str, stream: BinaryIO) -> None:
        with self._atomic(key) as target:
            shutil.copyfileobj(stream, target)

    def open_upload(self, key: str) -> StagedFile:
        target = self.folder / key
        with self._faults():
            if not self.folder.is_dir():
                raise self._missing(key)
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".partial-")
        return StagedFile(self, key, os.fdopen(fd, "wb"), Path(temporary))

    def move(self, source: str, target: str) -> None:
        with self._faults():
            (self.folder / target).parent.mkdir(parents=True, exist_ok=True)
            os.replace(self.folder / source, self.folder / target)
        self.remove([source])  # the folders it leaves empty

    @contextmanager
    def _faults(self) -> Iterator[None]:
        try:
            yield
        except OSError as error:
            fault = storage_fault(error, self.name)
            if fault is None:
                raise
            raise fault from error

    def put_bytes(self, key: str, data: bytes) -> str:
        with self._atomic(key) as target:
            target.write(data)
        return self._version(key)

    def get_bytes(self, key: str) -> bytes:
        return self.local_file(key).read_bytes()

    def get_versioned(self, key: str) -> tuple[bytes, str]:
        with self.local_file(key).open("rb") as file:
            return file.read(), _version_of(os.fstat(file.fileno()))

    def chunks(self, key: str) -> Iterator[bytes]:
        file = self.local_file(key).open("rb")
        return _pieces(file)

    def local_file(self, key: str) -> Path:
        path = self.folder / key
        if not path.exists():
            raise self._missing(key)
        return path

    def folder_file(self, key: str) -> Path | None:
        return self.folder / key

    def exists(self, key: str) -> bool:
        return (self.folder / key).is_file()

    def version(self, key: str) -> str | None:
        try:
            return self._version(key)
        except OSError:
            return None

    def _version(self, key: str) -> str:
        return _version_of(os.stat(self.folder / key))

    def remove(self, keys: Iterable[str]) -> None:
        """Remove files and the folders they leave empty (a batch that was not kept)."""
        for key in keys:
            path = self.folder / key
            path.unlink(missing_ok=True)
            for parent in path.parents:
                if parent == self.folder or self.folder not in parent.parents:
                    break
                try:
                    parent.rmdir()
                except OSError:  # not empty
                    break

    def stale(self, prefix: str, before: datetime) -> list[str]:
        # Half-written files (".partial-") included: their mtime is their last write.
        cutoff = before.timestamp()
        found = []
        for path in (self.folder / prefix).rglob("*"):
            with suppress(OSError):  # gone meanwhile
                if path.is_file() and path.stat().st_mtime < cutoff:
                    found.append(path.relative_to(self.folder).as_posix())
        return sorted(found)

    def prepare(self) -> None:
        data_folder.prepare(self.folder)

    def problem(self) -> str | None:
        return data_folder.problem(self.folder)

    def _missing(self, key: str) -> StorageUnavailable:
        if not self.folder.is_dir():
            return StorageUnavailable(f"{self.name} is missing")
        return StorageUnavailable(
            f"{key} is not in {self.name}, though the database says it was stored: the API"
            " and every worker must use one store: a shared data folder"
            " (SUDOKU_BATCH_DATA_DIR) or object storage (SUDOKU_BATCH_STORAGE_URL)"
        )

    @contextmanager
    def _atomic(self, key: str) -> Iterator[BinaryIO]:
        """Write to a temporary file beside the target; rename it over the target only if
        writing succeeded, else remove it."""
        target = self.folder / key
        try:
            if not self.make_folder and not self.folder.is_dir():
                raise self._missing(key)
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".partial-")
            try:
                with os.fdopen(fd, "wb") as file:
                    yield file
                os.replace(temporary, target)
            except BaseException:
                with suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as error:
            fault = storage_fault(error, self.name)
            if fault is None:
                raise
            raise fault from error


class StagedFile:
    """An upload written to a temporary file beside its target, renamed over it once whole."""

    def __init__(self, folder: LocalFolder, key: str, file: BinaryIO, temporary: Path):
        self.folder, self.key, self.file, self.temporary = folder, key, file, temporary

    def write(self, data: bytes) -> None:
        with self.folder._faults():
            self.file.write(data)

    def finish(self) -> None:
        with self.folder._faults():
            self.file.close()
            os.replace(self.temporary, self.folder.folder / self.key)

    def abort(self) -> None:
        self.file.close()
        self.temporary.unlink(missing_ok=True)
        self.folder.remove([self.key])  # the folders it leaves empty


def _version_of(stat: os.stat_result) -> str:
    # A file stored again is a new file (written aside and renamed over the old).
    return f"{stat.st_ino}-{stat.st_size}-{stat.st_mtime_ns}"


def _pieces(file: BinaryIO) -> Iterator[bytes]:
    with file:
        while piece := file.read(CHUNK_BYTES):
            yield piece
