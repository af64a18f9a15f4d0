"""A worker process reads back the boards it stored or read without decoding them again, and
always gets the pixels the file holds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sudoku_batch.store.artifacts import Artifacts, decode_image
from sudoku_batch.workers import cached_artifacts
from sudoku_batch.workers.cached_artifacts import CachedArtifacts

BOARD = "boards/00001-book.pdf-p1-0.png"


def board(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (90, 120, 3), dtype=np.uint8)


def decoded_images(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the stored images decoded from now on."""
    decoded: list[str] = []

    def counted(relative: str, data: bytes) -> np.ndarray:
        decoded.append(Path(relative).name)
        return decode_image(relative, data)

    monkeypatch.setattr(cached_artifacts, "decode_image", counted)
    return decoded


@pytest.fixture
def decodes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return decoded_images(monkeypatch)


def test_a_stored_board_reads_back_as_its_file_decodes_without_decoding(
    tmp_path: Path, decodes: list[str]
) -> None:
    cached = CachedArtifacts(tmp_path)
    stored = cached.store_board(BOARD, board(1))
    first, second = cached.read_image(BOARD), cached.read_image(BOARD)
    assert decodes == []
    plain = Artifacts(tmp_path).read_image(BOARD)
    np.testing.assert_array_equal(first, plain)
    np.testing.assert_array_equal(stored, plain)
    first[:] = 0  # a reader's changes stay its own
    np.testing.assert_array_equal(second, plain)
    np.testing.assert_array_equal(cached.read_image(BOARD), plain)


def test_a_board_read_once_is_not_decoded_again(tmp_path: Path, decodes: list[str]) -> None:
    Artifacts(tmp_path).store_board(BOARD, board(1))
    cached = CachedArtifacts(tmp_path)
    cached.read_image(BOARD)
    cached.read_image(BOARD)
    assert len(decodes) == 1


def test_a_board_stored_again_elsewhere_is_read_from_its_file(
    tmp_path: Path, decodes: list[str]
) -> None:
    cached = CachedArtifacts(tmp_path)
    cached.store_board(BOARD, board(1))
    again = Artifacts(tmp_path).store_board(BOARD, board(2))  # another process, same size
    np.testing.assert_array_equal(cached.read_image(BOARD), again)
    assert len(decodes) == 1


def test_lossy_images_are_never_kept(tmp_path: Path, decodes: list[str]) -> None:
    cached = CachedArtifacts(tmp_path)
    region = "regions/00001-book.pdf-p1-0.jpg"
    cached.write_image(region, board(1), 90)
    cached.read_image(region)
    cached.read_image(region)
    assert len(decodes) == 2


def test_only_the_last_boards_are_kept(tmp_path: Path, decodes: list[str]) -> None:
    cached = CachedArtifacts(tmp_path, kept=2)
    names = [f"boards/{index}.png" for index in range(3)]
    for index, name in enumerate(names):
        cached.store_board(name, board(index))
    for name in reversed(names):
        cached.read_image(name)
    assert decodes == ["0.png"]
