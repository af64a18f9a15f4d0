"""A worker process's artifacts, keeping the last few boards it stored or read, decoded.

A board's OCR task often runs in the process whose rectify task has just stored it, and its
solve task in the process that has just read it (or stored it upright): each then decoded
the same PNG again. Only lossless images are kept, so a board comes back with the very pixels
decoding its file gives; and an entry serves only while the file is the one it was made
from (the store's ``version``: a folder's inode, size and modification time, an object's
ETag), so what a task reads never depends on the cache.
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import numpy as np

from sudoku_batch.store.artifacts import PAGE_JPEG_QUALITY, Artifacts, decode_image, encode_image
from sudoku_batch.store.storage import Storage

# Boards a process keeps: more than a page holds, so a page's OCR tasks find theirs, and few
# enough that the decoded boards stay small beside the engines.
KEPT_BOARDS = 32
LOSSLESS_SUFFIX = ".png"


class CachedArtifacts(Artifacts):
    def __init__(self, storage: Storage | Path, kept: int = KEPT_BOARDS):
        super().__init__(storage)
        self.kept = kept
        self._boards: OrderedDict[str, tuple[str, np.ndarray]] = OrderedDict()

    def write_image(
        self, relative: str, pixels: np.ndarray, jpeg_quality: int = PAGE_JPEG_QUALITY
    ) -> None:
        version = self.storage.put_bytes(relative, encode_image(relative, pixels, jpeg_quality))
        self._boards.pop(relative, None)
        # 8-bit PNG: decoding the file gives exactly these pixels back.
        if relative.endswith(LOSSLESS_SUFFIX) and pixels.dtype == np.uint8:
            self._keep(relative, version, pixels)

    def read_image(self, relative: str) -> np.ndarray:
        kept = self._boards.get(relative)
        if kept is not None and kept[0] == self.storage.version(relative):
            self._boards.move_to_end(relative)
            return kept[1].copy()
        data, version = self.storage.get_versioned(relative)
        pixels = decode_image(relative, data)
        if relative.endswith(LOSSLESS_SUFFIX):
            self._keep(relative, version, pixels)
        return pixels

    def _keep(self, relative: str, version: str, pixels: np.ndarray) -> None:
        self._boards[relative] = (version, pixels.copy())
        self._boards.move_to_end(relative)
        while len(self._boards) > self.kept:
            self._boards.popitem(last=False)
