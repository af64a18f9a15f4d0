"""Turn what a user hands in (image files, PDFs, zip archives, folders) into pages.

Expansion is cheap and lazy: ``expand_inputs`` only lists pages (opening a PDF to count its
pages); ``load_page`` decodes or rasterises one page when a worker needs it, so a 300-page book
never sits in memory at once. Problems with one file surface as a typed error from
``load_page`` for that file's page, so the rest of the batch goes on.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import cv2
import numpy as np

from pipeline.board import PageImage
from pipeline.errors import UnreadableInput, UnsupportedInput

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".tif", ".tiff", ".webp", ".bmp"})
PDF_SUFFIXES = frozenset({".pdf"})
ARCHIVE_SUFFIXES = frozenset({".zip"})

# Book pages print grids of up to 16x16 several to a page; at 200 dpi a 16x16 cell of a
# 6-grid page is still ~30 px, enough for the recogniser, while a page stays ~1650x2340 px.
DEFAULT_PDF_DPI = 200

# Decode the stored pixels as they are: a phone's EXIF rotation flag is sometimes wrong (the
# pixels are already upright), so orientation is decided later from the digits themselves.
_IMREAD_FLAGS = cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION


class PageFormat(StrEnum):
    IMAGE = "image"
    PDF = "pdf"
    UNSUPPORTED = "unsupported"  # not a kind of file we read; ``problem`` says why
    UNREADABLE = "unreadable"  # e.g. a damaged archive; ``problem`` says why


@dataclass(frozen=True)
class PageSource:
    """Where one page comes from. Plain data, so it can cross process boundaries.

    ``path`` is the file on disk; ``member`` the name inside it when ``path`` is a zip archive;
    ``index`` the 0-based page (PDF page, or frame of a multi-page TIFF) within that file.
    ``source`` is the label users see: the path as given, or ``archive.zip/inner/path``.
    """

    source: str
    page: int  # 1-based, as users count
    path: str
    format: PageFormat
    member: str | None = None
    index: int = 0
    problem: str | None = None


def expand_inputs(paths: Iterable[str | Path]) -> Iterator[PageSource]:
    """Every page of every input, in order: folders sorted by name, archives by member name."""
    for path in paths:
        yield from expand_input(Path(path), label=str(path))


def expand_input(path: Path, label: str) -> Iterator[PageSource]:
    """The pages of one input path, labelled ``label`` (how the user named it)."""
    if path.is_dir():
        for child in sorted(p for p in path.rglob("*") if p.is_file()):
            relative = child.relative_to(path)
            if _is_hidden(relative) or _suffix(child.name) not in _READABLE_SUFFIXES:
                continue  # a folder may hold notes, thumbnails, etc.: read what we can read
            yield from expand_input(child, label=f"{label.rstrip('/')}/{relative.as_posix()}")
        return
    suffix = _suffix(path.name)
    if suffix in ARCHIVE_SUFFIXES:
        yield from _expand_archive(path, label)
    else:
        yield from _expand_file(path, label, member=None, data=None)


def load_page(source: PageSource, dpi: int = DEFAULT_PDF_DPI) -> PageImage:
    """Decode or rasterise one page into BGR pixels. Raises a typed, user-facing error."""
    if source.format is PageFormat.UNSUPPORTED:
        raise UnsupportedInput(source.problem or f"{source.source}: unsupported file")
    if source.format is PageFormat.UNREADABLE:
        raise UnreadableInput(source.problem or f"{source.source}: cannot be read")
    data = _read_bytes(source)
    if source.format is PageFormat.PDF:
        pixels = _rasterise_pdf_page(data, source, dpi)
    else:
        pixels = _decode_image(data, source)
    return PageImage(source=source.source, page=source.page, pixels=pixels)


_READABLE_SUFFIXES = IMAGE_SUFFIXES | PDF_SUFFIXES | ARCHIVE_SUFFIXES


def _suffix(name: str) -> str:
    return Path(name).suffix.lower()


def _is_hidden(relative: Path) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in relative.parts)


def _expand_archive(path: Path, label: str) -> Iterator[PageSource]:
    try:
        with zipfile.ZipFile(path) as archive:
            names = sorted(
                info.filename
                for info in archive.infolist()
                if not info.is_dir()
                and not _is_hidden(Path(info.filename))
                and _suffix(info.filename) in IMAGE_SUFFIXES | PDF_SUFFIXES
            )
            for name in names:
                data = archive.read(name) if _suffix(name) in PDF_SUFFIXES else None
                yield from _expand_file(path, f"{label}/{name}", member=name, data=data)
    except (zipfile.BadZipFile, OSError) as error:
        # Listed as one unreadable page, so the failure is recorded against this file.
        problem = f"{label}: not a readable zip archive ({error})"
        yield PageSource(label, 1, str(path), PageFormat.UNREADABLE, problem=problem)


def _expand_file(
    path: Path, label: str, member: str | None, data: bytes | None
) -> Iterator[PageSource]:
    suffix = _suffix(member or path.name)
    if suffix in PDF_SUFFIXES:
        for index in range(_pdf_page_count(path, data)):
            yield PageSource(label, index + 1, str(path), PageFormat.PDF, member, index)
    elif suffix in IMAGE_SUFFIXES:
        for index in range(_tiff_frame_count(path, member) if suffix in {".tif", ".tiff"} else 1):
            yield PageSource(label, index + 1, str(path), PageFormat.IMAGE, member, index)
    else:
        readable = ", ".join(sorted(_READABLE_SUFFIXES))
        problem = f"{label}: not an image, PDF or zip archive (sudoku-batch reads {readable})"
        yield PageSource(label, 1, str(path), PageFormat.UNSUPPORTED, member, problem=problem)


def _pdf_page_count(path: Path, data: bytes | None) -> int:
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(data if data is not None else str(path))
    except (pypdfium2.PdfiumError, OSError):
        return 1  # one page that will fail to load, carrying the reason
    try:
        return max(len(document), 1)
    finally:
        document.close()


def _tiff_frame_count(path: Path, member: str | None) -> int:
    if member is not None:
        return 1  # frames of a TIFF inside an archive: first frame only
    try:
        return max(int(cv2.imcount(str(path), _IMREAD_FLAGS)), 1)
    except cv2.error:
        return 1


def _read_bytes(source: PageSource) -> bytes:
    try:
        if source.member is None:
            return Path(source.path).read_bytes()
        with zipfile.ZipFile(source.path) as archive:
            return archive.read(source.member)
    except (OSError, KeyError, zipfile.BadZipFile) as error:
        raise UnreadableInput(f"{source.source}: cannot be read ({error})") from error


def _decode_image(data: bytes, source: PageSource) -> np.ndarray:
    buffer = np.frombuffer(data, dtype=np.uint8)
    if source.index == 0:
        pixels = cv2.imdecode(buffer, _IMREAD_FLAGS)
    else:
        ok, frames = cv2.imdecodemulti(buffer, _IMREAD_FLAGS)
        pixels = frames[source.index] if ok and source.index < len(frames) else None
    if pixels is None:
        raise UnreadableInput(
            f"{source.source}: the file is not a readable image (damaged or truncated?)"
        )
    return pixels


def _rasterise_pdf_page(data: bytes, source: PageSource, dpi: int) -> np.ndarray:
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(io.BytesIO(data))
    except pypdfium2.PdfiumError as error:
        raise UnreadableInput(
            f"{source.source}: not a readable PDF ({error}); is it damaged or encrypted?"
        ) from error
    try:
        if not 0 <= source.index < len(document):
            raise UnreadableInput(f"{source.source}: has no page {source.page}")
        bitmap = document[source.index].render(scale=dpi / 72, grayscale=False)
        rgb = bitmap.to_numpy()
    finally:
        document.close()
    # pdfium hands out BGR(A) by default, which is OpenCV's order already.
    return np.ascontiguousarray(rgb[:, :, :3])
