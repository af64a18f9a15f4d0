"""Zip archives: which members are pages, and their bytes, within the limits.

Members are judged from the central directory alone (name, flags, declared sizes) before a
byte is inflated, and read as streams cut off at the member limit, so a member that lies about
its size still cannot inflate past it. Members are never extracted by name, so a ``../`` or
absolute name cannot write anywhere; it is refused as ``unsafe_path`` all the same, since no
honest archive of scans holds one.
"""

from __future__ import annotations

import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from sudoku_batch.pipeline.errors import (
    EncryptedInput,
    SudokuBatchError,
    TooLarge,
    UnreadableInput,
    UnsafePath,
    UnsupportedInput,
)
from sudoku_batch.pipeline.ingest.limits import MIB, InputLimits
from sudoku_batch.pipeline.ingest.walk import (
    ARCHIVE_SUFFIXES,
    IMAGE_SUFFIXES,
    PDF_SUFFIXES,
    is_hidden,
    read_problem,
    suffix,
)

_CHUNK = 1 * MIB
_DRIVE = re.compile(r"^[A-Za-z]:")
_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)


@dataclass(frozen=True)
class Member:
    """A zip member that is a page file, or why it is refused (``error``)."""

    name: str
    error: SudokuBatchError | None = None


def list_members(path: Path, label: str, limits: InputLimits) -> Iterator[Member]:
    """The archive's image and PDF members sorted by name, each accepted or refused. Raises
    ``UnreadableInput`` or ``TooLarge`` for the archive as a whole."""
    try:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError) as error:
        raise UnreadableInput(f"{label}: not a readable zip archive ({error})") from error
    except OSError as error:
        raise UnreadableInput(f"{label}: {read_problem(error)}") from error
    if len(infos) > limits.max_archive_members:
        raise TooLarge(
            f"{label}: holds {len(infos)} members, more than the {limits.max_archive_members} "
            "allowed (SUDOKU_BATCH_MAX_ARCHIVE_MEMBERS)"
        )
    inflated = 0
    for info in sorted(infos, key=lambda info: info.filename):
        name = info.filename
        where = f"{label}/{name}"
        if _is_unsafe(name):  # before the hidden test, which a "../" name would pass
            problem = f"{where}: the member's name leads outside the archive; it is not read"
            yield Member(name, UnsafePath(problem))
            continue
        if info.is_dir() or is_hidden(PurePosixPath(name.replace("\\", "/"))):
            continue
        kind = suffix(name)
        if kind in ARCHIVE_SUFFIXES:
            problem = f"{where}: an archive inside an archive is not read; unpack it first"
            yield Member(name, UnsupportedInput(problem))
            continue
        if kind not in IMAGE_SUFFIXES | PDF_SUFFIXES:
            continue  # notes and the like beside the scans, as in a folder
        inflated += info.file_size
        yield Member(name, _member_problem(info, where, inflated, limits))


def read_member(path: str | Path, name: str, label: str, limits: InputLimits) -> bytes:
    """A member's bytes, read no further than the member limit."""
    with open_member(path, name, label) as stream:
        data = stream.read(limits.max_member_bytes + 1)
        if len(data) > limits.max_member_bytes:
            raise _member_too_large(label, limits)
        return data


def copy_member(path: str | Path, name: str, label: str, out: BinaryIO, limits: InputLimits):
    """Stream a member into ``out`` (a temporary file), no further than the member limit."""
    with open_member(path, name, label) as stream:
        copied = 0
        while chunk := stream.read(_CHUNK):
            copied += len(chunk)
            if copied > limits.max_member_bytes:
                raise _member_too_large(label, limits)
            out.write(chunk)
    out.flush()


class open_member:  # noqa: N801 - used as a context manager, like open()
    """The member as a stream; archive errors become typed, user-facing ones."""

    def __init__(self, path: str | Path, name: str, label: str):
        self.path, self.name, self.label = path, name, label

    def __enter__(self) -> BinaryIO:
        try:
            self.archive = zipfile.ZipFile(self.path)
            info = self.archive.getinfo(self.name)
            if info.flag_bits & 0x1:
                raise _encrypted(self.label)
            self.stream = self.archive.open(info)
        except (zipfile.BadZipFile, KeyError, NotImplementedError) as error:
            raise UnreadableInput(f"{self.label}: cannot be read ({error})") from error
        except OSError as error:
            raise UnreadableInput(f"{self.label}: {read_problem(error)}") from error
        return _GuardedStream(self.stream, self.label)  # type: ignore[return-value]

    def __exit__(self, *_: object) -> None:
        if hasattr(self, "stream"):
            self.stream.close()
        if hasattr(self, "archive"):
            self.archive.close()


class _GuardedStream:
    """Reads that turn a damaged member's errors into ``UnreadableInput``."""

    def __init__(self, stream: BinaryIO, label: str):
        self.stream, self.label = stream, label

    def read(self, size: int = -1) -> bytes:
        try:
            return self.stream.read(size)
        except (zipfile.BadZipFile, zlib.error, EOFError) as error:
            raise UnreadableInput(f"{self.label}: damaged in the archive ({error})") from error
        except OSError as error:
            raise UnreadableInput(f"{self.label}: {read_problem(error)}") from error


def _is_unsafe(name: str) -> bool:
    posix = name.replace("\\", "/")
    return posix.startswith("/") or bool(_DRIVE.match(posix)) or ".." in posix.split("/")


def _member_problem(
    info: zipfile.ZipInfo, where: str, inflated: int, limits: InputLimits
) -> SudokuBatchError | None:
    if info.flag_bits & 0x1:
        return _encrypted(where)
    if info.compress_type not in _METHODS:
        return UnsupportedInput(f"{where}: compressed with a method Python's zipfile cannot read")
    if info.file_size > limits.max_member_bytes:
        return TooLarge(
            f"{where}: inflates to {info.file_size / MIB:.0f} MiB, more than the "
            f"{limits.max_member_bytes / MIB:.0f} MiB allowed (SUDOKU_BATCH_MAX_MEMBER_BYTES)"
        )
    ratio = info.file_size / max(info.compress_size, 1)
    if info.file_size > limits.ratio_checked_above_bytes and ratio > limits.max_compression_ratio:
        return TooLarge(
            f"{where}: compressed {ratio:.0f} to 1, as a zip bomb is (at most "
            f"{limits.max_compression_ratio:.0f} allowed: SUDOKU_BATCH_MAX_COMPRESSION_RATIO)"
        )
    if inflated > limits.max_archive_bytes:
        return TooLarge(
            f"{where}: the archive's members inflate to more than the "
            f"{limits.max_archive_bytes / MIB:.0f} MiB allowed (SUDOKU_BATCH_MAX_ARCHIVE_BYTES)"
        )
    return None


def _encrypted(where: str) -> EncryptedInput:
    return EncryptedInput(
        f"{where}: is encrypted with a password; unpack it with the password and hand in the files"
    )


def _member_too_large(label: str, limits: InputLimits) -> TooLarge:
    return TooLarge(
        f"{label}: inflates to more than the {limits.max_member_bytes / MIB:.0f} MiB allowed "
        "(SUDOKU_BATCH_MAX_MEMBER_BYTES)"
    )
