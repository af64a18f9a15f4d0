"""Where uploads, page images, board images and renders live on disk.

Everything sits under one data dir that every process shares (a volume in docker-compose);
the database stores paths relative to it, so the dir can move. Files are written to a
temporary name and renamed, so a redelivered task never leaves a half-written image behind.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np

from pipeline.errors import UnreadableInput

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(filename: str) -> str:
    """The last part of a client's file name, reduced to characters safe on any filesystem."""
    base = _UNSAFE.sub("_", Path(filename.replace("\\", "/")).name).strip("._")
    return base or "upload"


class Artifacts:
    def __init__(self, data_dir: Path):
        self.data_dir = data_dir

    def path(self, relative: str) -> Path:
        return self.data_dir / relative

    # Layout: one folder per batch, then one per kind of file.
    def upload(self, batch_id: int, ordinal: int, filename: str) -> str:
        return f"batches/{batch_id}/uploads/{ordinal:04d}-{safe_name(filename)}"

    def page_image(self, batch_id: int, page_id: int) -> str:
        return f"batches/{batch_id}/pages/page-{page_id}.png"

    def board_image(self, batch_id: int, page_id: int, index: int, *, upright: bool) -> str:
        # The upright board gets its own file: the board as found stays the OCR stage's input.
        suffix = "-upright" if upright else ""
        return f"batches/{batch_id}/boards/page-{page_id}-{index}{suffix}.png"

    def render(self, batch_id: int, puzzle_id: int) -> str:
        return f"batches/{batch_id}/renders/puzzle-{puzzle_id}.png"

    def save_stream(self, relative: str, stream: BinaryIO) -> None:
        with self._atomic(relative) as target:
            shutil.copyfileobj(stream, target)

    def write_png(self, relative: str, pixels: np.ndarray) -> None:
        ok, encoded = cv2.imencode(".png", pixels)
        if not ok:
            raise ValueError(f"could not encode an image of shape {pixels.shape} as PNG")
        with self._atomic(relative) as target:
            target.write(encoded.tobytes())

    def read_image(self, relative: str) -> np.ndarray:
        pixels = cv2.imread(str(self.path(relative)), cv2.IMREAD_COLOR)
        if pixels is None:
            raise UnreadableInput(f"the stored image {relative} is missing or damaged")
        return pixels

    def _atomic(self, relative: str) -> _AtomicFile:
        return _AtomicFile(self.path(relative))


class _AtomicFile:
    """Write to a temporary file beside ``target``; rename over it only if writing succeeded."""

    def __init__(self, target: Path):
        self.target = target

    def __enter__(self) -> BinaryIO:
        self.target.parent.mkdir(parents=True, exist_ok=True)
        fd, self.temporary = tempfile.mkstemp(dir=self.target.parent, prefix=".partial-")
        self.file = os.fdopen(fd, "wb")
        return self.file

    def __exit__(self, exc_type: object, *_: object) -> None:
        self.file.close()
        if exc_type is None:
            os.replace(self.temporary, self.target)
        else:
            os.unlink(self.temporary)
