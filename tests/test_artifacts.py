"""A board is stored in grey, and read back as exactly the pixels the step that stored it
handed on (the server's OCR task reads the file; the embedded runner the pixels)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from store.artifacts import Artifacts


def test_a_stored_board_reads_back_as_the_grey_pixels_handed_on(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    colour = rng.integers(0, 256, (90, 90, 3), dtype=np.uint8)
    artifacts = Artifacts(tmp_path)
    handed_on = artifacts.store_board("boards/b.png", colour)
    assert handed_on.ndim == 2
    assert np.array_equal(handed_on, cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY))
    assert np.array_equal(artifacts.read_image("boards/b.png"), handed_on)
