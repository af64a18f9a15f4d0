"""Checking uploads before anything is stored: names reduced to base names, sizes within the
limits (413), content recognised by its first bytes, whatever type the client declared."""

from __future__ import annotations

from pathlib import PurePosixPath

from fastapi import UploadFile

from sudoku_batch.pipeline.errors import SudokuBatchError, UnreadableInput, UnsupportedInput
from sudoku_batch.pipeline.ingest.walk import READABLE_SUFFIXES, suffix

# What the ingest stage can read, by signature: PNG, JPEG, TIFF (both byte orders), GIF, BMP,
# WebP, PDF, zip.
SIGNATURES = (
    b"\x89PNG\r\n\x1a\n",
    b"\xff\xd8\xff",
    b"II*\x00",
    b"MM\x00*",
    b"GIF87a",
    b"GIF89a",
    b"BM",
    b"%PDF-",
    b"PK\x03\x04",
)


def base_name(filename: str | None) -> str:
    """The client's file name without any folder: never echo a client's path back."""
    name = PurePosixPath((filename or "").replace("\\", "/")).name
    return name.strip() or "upload"


def size_refusal(upload: UploadFile, max_bytes: int) -> str | None:
    """Why an upload is over the size limit (``MAX_FILE_MB``), or None."""
    if upload.size is not None and upload.size > max_bytes:
        return f"{base_name(upload.filename)} is larger than {max_bytes // 2**20} MB (MAX_FILE_MB)"
    return None


def _head(upload: UploadFile, size: int = 16) -> bytes:
    head = upload.file.read(size)
    upload.file.seek(0)
    return head


def is_media(upload: UploadFile) -> bool:
    """Whether an upload is an image, PDF or zip archive by its content."""
    head = _head(upload)
    return (head[:4] == b"RIFF" and head[8:12] == b"WEBP") or head.startswith(SIGNATURES)


def not_media(upload: UploadFile, name: str) -> SudokuBatchError:
    """Why an upload that is no image, PDF or zip fails, by the rule ``run`` applies to a
    file named outright: damaged if its name says it is one, else of a kind not read."""
    message = f"{base_name(upload.filename)} is not an image, PDF or zip archive by its content"
    if suffix(name) in READABLE_SUFFIXES:
        return UnreadableInput(message)
    return UnsupportedInput(message)


def text_refusal(upload: UploadFile) -> str | None:
    """Why an upload is no text (a NUL byte in its first KiB), or None."""
    if b"\x00" in _head(upload, 1024):
        return f"{base_name(upload.filename)} is not a text file"
    return None
