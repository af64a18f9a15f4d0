"""Turn what a user hands in (image files, PDFs, zip archives, folders) into pages.

Expansion is cheap and lazy: ``expand_inputs`` only lists pages (opening a PDF to count its
pages, a TIFF's header to count its frames); ``load_page`` decodes or rasterises one page when
a worker needs it, so a 300-page book never sits in memory at once. Every input unit (a file,
a zip member, a PDF page) becomes at least one ``PageSource``; one that cannot be read is
listed as a refused page carrying its error code and message, so it gets a record and the rest
of the batch goes on. Sizes are checked against ``InputLimits`` before anything is decoded.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from sudoku_batch.pipeline.board import PageImage
from sudoku_batch.pipeline.errors import (
    EncryptedInput,
    SudokuBatchError,
    TooLarge,
    TooSmall,
    UnreadableInput,
    UnsupportedInput,
    error_for_code,
)
from sudoku_batch.pipeline.ingest import archive
from sudoku_batch.pipeline.ingest.damage import image_damage, pdf_page_damage
from sudoku_batch.pipeline.ingest.limits import DEFAULT_LIMITS, InputLimits
from sudoku_batch.pipeline.ingest.pdf_cache import cached_document
from sudoku_batch.pipeline.ingest.walk import (
    ARCHIVE_SUFFIXES,
    IMAGE_SUFFIXES,
    PDF_SUFFIXES,
    READABLE_SUFFIXES,
    input_paths,
    input_paths_of,
    suffix,
)

# Book pages print grids of up to 16x16 several to a page; at 200 dpi a 16x16 cell of a
# 6-grid page is still ~30 px, enough for the recogniser, while a page stays ~1650x2340 px.
DEFAULT_PDF_DPI = 200

# Decode the stored pixels as they are: a phone's EXIF rotation flag is sometimes wrong (the
# pixels are already upright), so orientation is decided later from the digits themselves.
_IMREAD_FLAGS = cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION

# Pillow only reads headers here (the bounds are ours, in InputLimits), and its own bomb check
# would raise before ours could give the user a reason.
Image.MAX_IMAGE_PIXELS = None


class PageFormat(StrEnum):
    IMAGE = "image"
    PDF = "pdf"
    REFUSED = "refused"  # cannot be read; ``error_code`` and ``problem`` say why
    UNSUPPORTED = "unsupported"  # rows written before "refused" existed
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class PageSource:
    """Where one page comes from. Plain data, so it can cross process boundaries.

    ``path`` is the file on disk; ``member`` the name inside it when ``path`` is a zip archive;
    ``index`` the 0-based page (PDF page, or frame of a multi-page TIFF) within that file.
    ``source`` is the label users see: the path as given, or ``archive.zip/inner/path``.
    A refused unit has ``error_code`` and ``problem`` (the message).
    """

    source: str
    page: int  # 1-based, as users count
    path: str
    format: PageFormat
    member: str | None = None
    index: int = 0
    problem: str | None = None
    error_code: str | None = None

    @property
    def refused(self) -> bool:
        return self.problem is not None

    def error(self) -> SudokuBatchError:
        """The error a refused unit records."""
        codes = {PageFormat.UNSUPPORTED: UnsupportedInput.code}
        code = self.error_code or codes.get(self.format, UnreadableInput.code)
        return error_for_code(code)(self.problem or f"{self.source}: cannot be read")


def expand_inputs(
    paths: Iterable[str | Path], limits: InputLimits = DEFAULT_LIMITS
) -> Iterator[PageSource]:
    """Every page of every input, in order: folders sorted by name, archives by member name."""
    for found in input_paths(paths):
        yield from _expand_found(found, limits)


def expand_input(
    path: Path, label: str, limits: InputLimits = DEFAULT_LIMITS
) -> Iterator[PageSource]:
    """The pages of one input path, labelled ``label`` (how the user named it)."""
    for found in input_paths_of(path, label):
        yield from _expand_found(found, limits)


def load_page(
    source: PageSource, dpi: int = DEFAULT_PDF_DPI, limits: InputLimits = DEFAULT_LIMITS
) -> PageImage:
    """Decode or rasterise one page into BGR pixels. Raises a typed, user-facing error."""
    if source.refused or source.format in (PageFormat.UNSUPPORTED, PageFormat.UNREADABLE):
        raise source.error()
    if source.format is PageFormat.PDF:
        pixels, damaged = _rasterise_pdf_page(source, dpi, limits)
    else:
        pixels, damaged = _decode_image(source, limits)
    return PageImage(source.source, source.page, pixels, damaged)


def _expand_found(found, limits: InputLimits) -> Iterator[PageSource]:
    if found.problem is not None:
        yield _refused(found.label, str(found.path), None, found.error_code, found.problem)
    elif suffix(found.path.name) in ARCHIVE_SUFFIXES:
        yield from _expand_archive(found.path, found.label, limits)
    else:
        yield from _expand_file(found.path, found.label, None, limits)


def _refused(label: str, path: str, member: str | None, code: str | None, problem: str):
    return PageSource(label, 1, path, PageFormat.REFUSED, member, problem=problem, error_code=code)


def _expand_archive(path: Path, label: str, limits: InputLimits) -> Iterator[PageSource]:
    try:
        members = list(archive.list_members(path, label, limits))
    except SudokuBatchError as error:
        yield _refused(label, str(path), None, error.code, error.message)
        return
    if not members:
        readable = ", ".join(sorted(IMAGE_SUFFIXES | PDF_SUFFIXES))
        problem = f"{label}: holds no image or PDF ({readable})"
        yield _refused(label, str(path), None, UnsupportedInput.code, problem)
    for member in members:
        member_label = f"{label}/{member.name}"
        if member.error is not None:
            error = member.error
            yield _refused(member_label, str(path), member.name, error.code, error.message)
        else:
            yield from _expand_file(path, member_label, member.name, limits)


def _expand_file(
    path: Path, label: str, member: str | None, limits: InputLimits
) -> Iterator[PageSource]:
    kind = suffix(member or path.name)
    try:
        if kind in PDF_SUFFIXES:
            pages = _pdf_page_count(path, label, member, limits)
            page_format = PageFormat.PDF
        elif kind in IMAGE_SUFFIXES:
            multi = kind in {".tif", ".tiff"} and member is None  # in archives: first frame
            pages = _frame_count(path, label, limits) if multi else 1
            page_format = PageFormat.IMAGE
        else:
            readable = ", ".join(sorted(READABLE_SUFFIXES))
            raise UnsupportedInput(f"{label}: not an image, PDF or zip archive (reads {readable})")
    except SudokuBatchError as error:
        yield _refused(label, str(path), member, error.code, error.message)
        return
    for index in range(pages):
        yield PageSource(label, index + 1, str(path), page_format, member, index)


def _pdf_page_count(path: Path, label: str, member: str | None, limits: InputLimits) -> int:
    with _pdf_document(path, label, member, limits) as document:
        pages = len(document)
    if pages == 0:
        raise UnreadableInput(f"{label}: the PDF has no pages")
    if pages > limits.max_pages_per_file:
        raise TooLarge(
            f"{label}: has {pages} pages, more than the {limits.max_pages_per_file} allowed "
            "(SUDOKU_BATCH_MAX_PAGES_PER_FILE)"
        )
    return pages


def _frame_count(path: Path, label: str, limits: InputLimits) -> int:
    try:
        with Image.open(path) as image:
            frames = getattr(image, "n_frames", 1)  # walks the frame directory, decodes nothing
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as error:
        return _unreadable_image(label, error)
    if frames > limits.max_frames_per_image:
        raise TooLarge(
            f"{label}: has {frames} frames, more than the {limits.max_frames_per_image} "
            "allowed (SUDOKU_BATCH_MAX_FRAMES_PER_IMAGE)"
        )
    return frames


class _pdf_document:  # noqa: N801 - a context manager, used like open()
    """A PDF opened by pdfium from its file, or from a zip member streamed to a temporary
    file (never held whole in memory); password and damage become typed errors."""

    def __init__(self, path: Path | str, label: str, member: str | None, limits: InputLimits):
        self.path, self.label, self.member, self.limits = path, label, member, limits
        self.spool = None

    def __enter__(self):
        import pypdfium2

        target = str(self.path)
        if self.member is not None:
            self.spool = tempfile.NamedTemporaryFile(suffix=".pdf")  # noqa: SIM115
            archive.copy_member(self.path, self.member, self.label, self.spool, self.limits)
            target = self.spool.name
        try:
            self.document = pypdfium2.PdfDocument(target)
        except pypdfium2.PdfiumError as error:
            self._close_spool()
            if _declares_encryption(target):
                raise EncryptedInput(
                    f"{self.label}: the PDF is encrypted with a password; save a copy "
                    "without one and hand that in"
                ) from error
            # pdfium's reason is its per-thread last error, which may be another file's.
            raise UnreadableInput(
                f"{self.label}: not a readable PDF (damaged, truncated, or without pages?)"
            ) from error
        return self.document

    def __exit__(self, *_: object) -> None:
        self.document.close()
        self._close_spool()

    def _close_spool(self) -> None:
        if self.spool is not None:
            self.spool.close()


def _declares_encryption(path: str) -> bool:
    """Whether a PDF that pdfium refused has an /Encrypt dictionary. pdfium's own error code
    is a per-thread "last error" that a failure of another kind can leave stale."""
    tail = b""
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            if b"/Encrypt" in tail + chunk:
                return True
            tail = chunk[-16:]
    return False


def _image_bytes(source: PageSource, limits: InputLimits) -> bytes | None:
    """A zip member's bytes (bounded); None for a file on disk, which is read by path."""
    if source.member is None:
        return None
    return archive.read_member(source.path, source.member, source.source, limits)


def _decode_image(source: PageSource, limits: InputLimits) -> tuple[np.ndarray, str | None]:
    """The pixels, and the decoder's warning when the file is damaged."""
    data = _image_bytes(source, limits)
    opened = io.BytesIO(data) if data is not None else source.path
    try:
        with Image.open(opened) as image:
            if source.index:
                image.seek(source.index)
            _check_size(source.source, image.size, limits)
            damaged = image_damage(source.path, data, image.format)
            if source.index:  # later TIFF frames: Pillow decodes the one frame asked for
                rgb = np.asarray(image.convert("RGB"))
                return np.ascontiguousarray(rgb[:, :, ::-1]), damaged
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError) as error:
        _unreadable_image(source.source, error)
    if data is None:
        pixels = cv2.imread(source.path, _IMREAD_FLAGS)
    else:
        pixels = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), _IMREAD_FLAGS)
    if pixels is None:
        raise UnreadableInput(
            f"{source.source}: the file is not a readable image (damaged or truncated?)"
        )
    return pixels, damaged


def _check_size(label: str, size: tuple[int, int], limits: InputLimits) -> None:
    width, height = size
    if width * height > limits.max_image_pixels:
        raise TooLarge(
            f"{label}: {width}x{height} pixels, more than the {limits.max_image_pixels:,} "
            "allowed (SUDOKU_BATCH_MAX_IMAGE_PIXELS)"
        )
    if min(width, height) < limits.min_image_side:
        raise TooSmall(
            f"{label}: {width}x{height} pixels; a page must be at least "
            f"{limits.min_image_side} pixels on each side to hold a grid"
        )


def _unreadable_image(label: str, error: Exception):
    raise UnreadableInput(
        f"{label}: the file is not a readable image (damaged, truncated or not an image?)"
    ) from error


def _rasterise_pdf_page(
    source: PageSource, dpi: int, limits: InputLimits
) -> tuple[np.ndarray, str | None]:
    """The page's pixels, and the warning when its file or one of its streams is damaged."""
    import pypdfium2

    document = cached_document(
        source.path,
        source.member,
        lambda: _pdf_document(source.path, source.source, source.member, limits),
    )  # kept open for the next page of the same file (pdf_cache)
    if not 0 <= source.index < len(document):
        raise UnreadableInput(f"{source.source}: has no page {source.page}")
    page = None
    try:
        page = document[source.index]
        width, height = page.get_size()  # points, 1/72 in
        if max(width, height) > limits.max_pdf_page_points:
            raise TooLarge(
                f"{source.source} page {source.page}: {width:.0f}x{height:.0f} pt, larger "
                f"than the {limits.max_pdf_page_points:.0f} pt a side allowed "
                "(SUDOKU_BATCH_MAX_PDF_PAGE_POINTS)"
            )
        scale = dpi / 72
        pixels_wide, pixels_high = round(width * scale), round(height * scale)
        _check_size(
            f"{source.source} page {source.page} at {dpi} dpi",
            (pixels_wide, pixels_high),
            limits,
        )
        bitmap = page.render(scale=scale, grayscale=False)
        # A copy: the bitmap's buffer is freed with the bitmap, below.
        bgr = np.array(bitmap.to_numpy()[:, :, :3], order="C")
        bitmap.close()
        damaged = pdf_page_damage(document, page)
    except pypdfium2.PdfiumError as error:
        raise UnreadableInput(
            f"{source.source} page {source.page}: cannot be rendered ({error})"
        ) from error
    finally:
        if page is not None:
            page.close()  # the document stays open: its pages must not pile up
    # pdfium hands out BGR(A) by default, which is OpenCV's order already.
    return bgr, damaged
