"""A board is stored in grey, and read back as exactly the pixels the step that stored it
handed on (the server's OCR task reads the file; the embedded runner the pixels)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from pipeline.errors import UnreadableInput
from store.artifacts import Artifacts


def test_a_stored_board_reads_back_as_the_grey_pixels_handed_on(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    colour = rng.integers(0, 256, (90, 90, 3), dtype=np.uint8)
    artifacts = Artifacts(tmp_path)
    handed_on = artifacts.store_board("boards/b.png", colour)
    assert handed_on.ndim == 2
    assert np.array_equal(handed_on, cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY))
    assert np.array_equal(artifacts.read_image("boards/b.png"), handed_on)


def test_a_stored_image_size_is_read_from_its_header(tmp_path: Path) -> None:
    artifacts = Artifacts(tmp_path)
    artifacts.store_board("boards/b.png", np.zeros((70, 110), np.uint8))
    assert artifacts.image_size("boards/b.png") == (110, 70)
    artifacts.path("boards/damaged.png").write_bytes(b"not a png")
    with pytest.raises(UnreadableInput, match="missing or damaged"):
        artifacts.image_size("boards/damaged.png")
