"""Where uploads, page images, board images and renders live on disk.

Everything sits under one data dir that every process shares (a volume in docker-compose);
the database stores paths relative to it, so the dir can move. Files are written to a
temporary name and renamed, so a redelivered task never leaves a half-written image behind.

A data dir that cannot be written (no space left, read-only, missing) or that lacks a file the
database says is stored is the deployment's fault, never an input's: it raises
``StorageUnavailable`` (``StorageFull`` for no space), which the server retries as it does a
database outage and the embedded runner stops on.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from sudoku_batch.pipeline.errors import SudokuBatchError, UnreadableInput

PAGE_JPEG_QUALITY = 95
# Renders are only looked at: JPEG at 90 took a 200 dpi book's renders from about 500 KB a grid
# as PNG to a tenth of that, encoding in under 1 ms where PNG took 11 ms (docs/throughput.md).
# A board's page region is what the solve step draws its render on, so it gets the same.
RENDER_JPEG_QUALITY = 90
# Boards are stored in grey, the only channel the recogniser reads (its crops are luminance),
# losslessly, since the server's OCR task reads them again: on the development photos and
# books-dev JPEG at quality 90 or 95 read 4-5 of 16,914 givens to another digit, a grey PNG
# none (bench/board_format.py). Grey took a 200 dpi book's boards from 309 to 125 KB a grid.
# zlib's run-length strategy with every row Paeth-filtered beat zlib levels 1, 3 and 6 in
# both CPU and bytes (bench/board_png.py; against level 3: 360 development boards 5.9 -> 2.8
# ms and 84 -> 71 KB a board, the 200 dpi book's 6.3 -> 2.9 ms and 103 -> 88 KB).
BOARD_PNG_PARAMS = [
    cv2.IMWRITE_PNG_STRATEGY,
    cv2.IMWRITE_PNG_STRATEGY_RLE,
    cv2.IMWRITE_PNG_FILTER,
    cv2.IMWRITE_PNG_FILTER_PAETH,
]
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})
# Faults of the disk or of how it is mounted, whatever file is written or read.
STORAGE_FAULTS = NO_SPACE | {errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO, errno.ENOENT}


class StorageUnavailable(SudokuBatchError):
    """The data folder cannot be used: missing, read-only, not writable, or without a file the
    database says is stored in it (a worker whose data folder is not the API's)."""

    code = "storage_unavailable"


class StorageFull(StorageUnavailable):
    """No space left (or the quota reached) on the data folder's filesystem."""

    code = "storage_full"


def storage_fault(error: OSError, data_dir: Path) -> StorageUnavailable | None:
    """The storage fault an ``OSError`` under ``data_dir`` is, or None if it is none."""
    if error.errno in NO_SPACE:
        return StorageFull(f"no space left in the data folder {data_dir}: free some space")
    if error.errno in STORAGE_FAULTS:
        return StorageUnavailable(
            f"the data folder {data_dir} cannot be written ({error.strerror}: {error.filename})"
        )
    return None


def safe_name(filename: str) -> str:
    """The last part of a client's file name, reduced to characters safe on any filesystem."""
    base = _UNSAFE.sub("_", Path(filename.replace("\\", "/")).name).strip("._")
    return base or "upload"


@dataclass(frozen=True)
class PageRef:
    """What names a page's files: its batch, its id, and where it came from."""

    batch_id: int
    page_id: int
    source: str  # the user's label, e.g. "book.pdf" or "scans.zip/p1.png"
    page: int  # 1-based

    @property
    def stem(self) -> str:
        # The id keeps names unique; the source and page number say where a file came from.
        return f"{self.page_id:05d}-{safe_name(self.source)[:60]}-p{self.page}"


class Artifacts:
    """Files of a batch under ``data_dir``: one folder per batch on a server
    (``batches/<id>/``), or the data dir itself when it belongs to one batch (an embedded
    run's output folder). ``make_folder``: a write makes ``data_dir`` if missing (a run's
    own output folder); else a missing one is ``StorageUnavailable`` (the API makes the
    server's, and a worker must never write into an empty folder in its place)."""

    def __init__(self, data_dir: Path, *, folder_per_batch: bool = True, make_folder: bool = False):
        self.data_dir = data_dir
        self.folder_per_batch = folder_per_batch
        self.make_folder = make_folder

    def path(self, relative: str) -> Path:
        return self.data_dir / relative

    def stored(self, relative: str) -> Path:
        """The path of a file the database says is stored; ``StorageUnavailable`` if it is not
        there (the data folder missing, or not the one the file was stored in)."""
        path = self.path(relative)
        if not path.exists():
            raise self._missing(relative)
        return path

    def remove(self, relatives: list[str]) -> None:
        """Remove stored files and the folders they leave empty (a batch that was not kept)."""
        for relative in relatives:
            path = self.path(relative)
            path.unlink(missing_ok=True)
            for folder in path.parents:
                if folder == self.data_dir or self.data_dir not in folder.parents:
                    break
                try:
                    folder.rmdir()
                except OSError:  # not empty
                    break

    def _missing(self, relative: str) -> StorageUnavailable:
        if not self.data_dir.is_dir():
            return StorageUnavailable(f"the data folder {self.data_dir} is missing")
        return StorageUnavailable(
            f"{relative} is not in the data folder {self.data_dir}, though the database says it"
            " was stored: every worker and the API must share one data folder"
            " (SUDOKU_BATCH_DATA_DIR)"
        )

    def _batch(self, batch_id: int) -> str:
        return f"batches/{batch_id}/" if self.folder_per_batch else ""

    def upload(self, batch_id: int, ordinal: int, filename: str) -> str:
        return f"{self._batch(batch_id)}uploads/{ordinal:04d}-{safe_name(filename)}"

    def page_image(self, page: PageRef) -> str:
        # JPEG: a page is only looked at, and on a 640x480 to 12 MP photo JPEG encodes about
        # 9x faster than PNG at a fifth of the size (docs/architecture.md, Files).
        return f"{self._batch(page.batch_id)}pages/{page.stem}.jpg"

    def board_image(self, page: PageRef, index: int, *, upright: bool) -> str:
        # The upright board gets its own file: the board as found stays the OCR stage's input.
        suffix = "-upright" if upright else ""
        return f"{self._batch(page.batch_id)}boards/{page.stem}-g{index}{suffix}.png"

    def board_region(self, page: PageRef, index: int) -> str:
        """The page around a board, which the server's solve task draws the render on (the
        embedded runner keeps the page in memory instead)."""
        return f"{self._batch(page.batch_id)}regions/{page.stem}-g{index}.jpg"

    def cell_image(self, page: PageRef, index: int, row: int, col: int) -> str:
        folder = f"{self._batch(page.batch_id)}cells/{page.stem}-g{index}"
        return f"{folder}/r{row + 1}c{col + 1}.png"

    def render(self, page: PageRef, index: int) -> str:
        return f"{self._batch(page.batch_id)}renders/{page.stem}-g{index}.jpg"

    def save_stream(self, relative: str, stream: BinaryIO) -> None:
        with self._atomic(relative) as target:
            shutil.copyfileobj(stream, target)

    def write_image(
        self, relative: str, pixels: np.ndarray, jpeg_quality: int = PAGE_JPEG_QUALITY
    ) -> None:
        """Encode by the name's suffix: PNG (lossless) for a board or cell a later step or a
        person reads again, JPEG for a page, a page region or a render, which are only drawn
        on or looked at."""
        suffix = Path(relative).suffix
        if suffix == ".jpg":
            params = [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality]
        else:
            params = BOARD_PNG_PARAMS
        ok, encoded = cv2.imencode(suffix, pixels, params)
        if not ok:
            raise ValueError(f"could not encode an image of shape {pixels.shape} as {suffix}")
        with self._atomic(relative) as target:
            target.write(encoded.tobytes())

    def store_board(self, relative: str, pixels: np.ndarray) -> np.ndarray:
        """Store a board in grey; returns the grey pixels, which ``read_image`` reads back."""
        gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY) if pixels.ndim == 3 else pixels
        self.write_image(relative, gray)
        return gray

    def read_image(self, relative: str) -> np.ndarray:
        """The stored image as written: grey for a board, colour for the rest."""
        pixels = cv2.imread(str(self.stored(relative)), cv2.IMREAD_UNCHANGED)
        if pixels is None:
            raise UnreadableInput(f"the stored image {relative} is missing or damaged")
        return pixels

    def image_size(self, relative: str) -> tuple[int, int]:
        """(width, height) of a stored image, from its header: nothing is decoded."""
        path = self.stored(relative)
        try:
            with Image.open(path) as image:
                return image.size
        except (OSError, UnidentifiedImageError) as error:
            raise UnreadableInput(f"the stored image {relative} is missing or damaged") from error

    @contextmanager
    def _atomic(self, relative: str) -> Iterator[BinaryIO]:
        """Write to a temporary file beside the target; rename it over the target only if
        writing succeeded, else remove it."""
        target = self.path(relative)
        try:
            if not self.make_folder and not self.data_dir.is_dir():
                raise self._missing(relative)
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
            fault = storage_fault(error, self.data_dir)
            if fault is None:
                raise
            raise fault from error
