"""A worker process's artifacts, keeping the last few boards it stored or read, decoded.

A board's OCR task often runs in the process whose rectify task has just stored it, and its
solve task in the process that has just read it (or stored it upright): each then decoded
the same PNG again. Only lossless images are kept, so a board comes back with the very pixels
decoding its file gives; and an entry serves only while the file is the one it was made
from (same inode, size and modification time: a board stored again is a new file, written
aside and renamed over the old), so what a task reads never depends on the cache.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path

import numpy as np

from sudoku_batch.store.artifacts import PAGE_JPEG_QUALITY, Artifacts

# Boards a process keeps: more than a page holds, so a page's OCR tasks find theirs (a 200 dpi
# book's board is about 250 KB decoded).
KEPT_BOARDS = 32
LOSSLESS_SUFFIX = ".png"

FileIdentity = tuple[int, int, int]  # inode, size, modification time (ns)


class CachedArtifacts(Artifacts):
    def __init__(self, data_dir: Path, kept: int = KEPT_BOARDS):
        super().__init__(data_dir)
        self.kept = kept
        self._boards: OrderedDict[str, tuple[FileIdentity, np.ndarray]] = OrderedDict()

    def write_image(
        self, relative: str, pixels: np.ndarray, jpeg_quality: int = PAGE_JPEG_QUALITY
    ) -> None:
        super().write_image(relative, pixels, jpeg_quality)
        self._boards.pop(relative, None)
        # 8-bit PNG: decoding the file gives exactly these pixels back.
        if relative.endswith(LOSSLESS_SUFFIX) and pixels.dtype == np.uint8:
            self._keep(relative, pixels)

    def read_image(self, relative: str) -> np.ndarray:
        kept = self._boards.get(relative)
        if kept is not None and kept[0] == self._identity(relative):
            self._boards.move_to_end(relative)
            return kept[1].copy()
        pixels = super().read_image(relative)
        if relative.endswith(LOSSLESS_SUFFIX):
            self._keep(relative, pixels)
        return pixels

    def _keep(self, relative: str, pixels: np.ndarray) -> None:
        identity = self._identity(relative)
        if identity is None:
            return
        self._boards[relative] = (identity, pixels.copy())
        self._boards.move_to_end(relative)
        while len(self._boards) > self.kept:
            self._boards.popitem(last=False)

    def _identity(self, relative: str) -> FileIdentity | None:
        try:
            stat = os.stat(self.path(relative))
        except OSError:
            return None
        return stat.st_ino, stat.st_size, stat.st_mtime_ns
