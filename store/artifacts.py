"""How uploads, page images, board images and renders are named and stored.

Every file goes through one ``store.storage.Storage`` (a local folder, or S3-compatible object
storage that workers on any host reach); the database stores the keys made here, never a
host's path, so the store can move. A store that cannot be used raises
``StorageUnavailable`` (``store.storage``), which the server retries as it does a database
outage and the embedded runner stops on.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

from sudoku_batch.pipeline.errors import UnreadableInput
from sudoku_batch.store.local_storage import LocalFolder
from sudoku_batch.store.storage import Storage

PAGE_JPEG_QUALITY = 95
# Renders are only looked at: JPEG is a fraction of PNG's size and encodes faster.
# A board's page region is what the solve step draws its render on, so it gets the same.
RENDER_JPEG_QUALITY = 90
# Boards are stored in grey, the only channel the recogniser reads (its crops are luminance),
# losslessly, since the server's OCR task reads them again: on the development photos and
# books-dev JPEG at quality 90 or 95 read a few givens to another digit, a grey PNG none
# (bench/board_format.py). zlib's run-length strategy with every row Paeth-filtered is smaller
# and faster than zlib's levels (bench/board_png.py).
BOARD_PNG_PARAMS = [
    cv2.IMWRITE_PNG_STRATEGY,
    cv2.IMWRITE_PNG_STRATEGY_RLE,
    cv2.IMWRITE_PNG_FILTER,
    cv2.IMWRITE_PNG_FILTER_PAETH,
]
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


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
    """Files of a batch in ``storage``: one folder per batch on a server (``batches/<id>/``),
    or the store's top when it belongs to one batch (an embedded run's output folder). A
    ``Path`` is the local folder there (``LocalFolder``)."""

    def __init__(self, storage: Storage | Path, *, folder_per_batch: bool = True):
        self.storage = LocalFolder(storage) if isinstance(storage, Path) else storage
        self.folder_per_batch = folder_per_batch

    def local_file(self, key: str) -> Path:
        """A path on this host holding a file the database says is stored, for readers that
        open paths; ``StorageUnavailable`` if it is not stored."""
        return self.storage.local_file(key)

    def remove(self, keys: list[str]) -> None:
        """Remove stored files (a batch that was not kept)."""
        self.storage.remove(keys)

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
        self.storage.put_stream(relative, stream)

    def write_image(
        self, relative: str, pixels: np.ndarray, jpeg_quality: int = PAGE_JPEG_QUALITY
    ) -> None:
        self.storage.put_bytes(relative, encode_image(relative, pixels, jpeg_quality))

    def store_board(self, relative: str, pixels: np.ndarray) -> np.ndarray:
        """Store a board in grey; returns the grey pixels, which ``read_image`` reads back."""
        gray = cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY) if pixels.ndim == 3 else pixels
        self.write_image(relative, gray)
        return gray

    def read_image(self, relative: str) -> np.ndarray:
        """The stored image as written: grey for a board, colour for the rest."""
        return decode_image(relative, self.storage.get_bytes(relative))

    def image_size(self, relative: str) -> tuple[int, int]:
        """(width, height) of a stored image, from its header: nothing is decoded."""
        data = io.BytesIO(self.storage.get_bytes(relative))
        try:
            with Image.open(data) as image:
                return image.size
        except (OSError, UnidentifiedImageError) as error:
            raise UnreadableInput(f"the stored image {relative} is missing or damaged") from error


def encode_image(relative: str, pixels: np.ndarray, jpeg_quality: int) -> bytes:
    """Encode by the name's suffix: PNG (lossless) for a board or cell a later step or a
    person reads again, JPEG for a page, a page region or a render, which are only drawn on or
    looked at."""
    suffix = Path(relative).suffix
    if suffix == ".jpg":
        params = [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality]
    else:
        params = BOARD_PNG_PARAMS
    ok, encoded = cv2.imencode(suffix, pixels, params)
    if not ok:
        raise ValueError(f"could not encode an image of shape {pixels.shape} as {suffix}")
    return encoded.tobytes()


def decode_image(relative: str, data: bytes) -> np.ndarray:
    encoded = np.frombuffer(data, np.uint8)
    pixels = cv2.imdecode(encoded, cv2.IMREAD_UNCHANGED) if encoded.size else None
    if pixels is None:
        raise UnreadableInput(f"the stored image {relative} is missing or damaged")
    return pixels
