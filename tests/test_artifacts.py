"""A board is stored in grey, and read back as exactly the pixels the step that stored it
handed on (the server's OCR task reads the file; the embedded runner the pixels)."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
import pytest

from sudoku_batch.pipeline.errors import UnreadableInput
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.storage import StorageFull, StorageUnavailable
from tests.small_disk import fill, remount, small_disk


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
    (tmp_path / "boards/damaged.png").write_bytes(b"not a png")
    with pytest.raises(UnreadableInput, match="missing or damaged"):
        artifacts.image_size("boards/damaged.png")


def test_a_full_disk_is_storage_full_and_leaves_no_partial_file(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", "1m") as disk:
        artifacts = Artifacts(disk)
        filler = fill(disk)
        with pytest.raises(StorageFull, match="no space left") as raised:
            artifacts.store_board("boards/b.png", np.full((300, 300), 7, np.uint8))
        assert str(disk) not in raised.value.message  # API clients see it: no host path
        assert list((disk / "boards").iterdir()) == []
        filler.unlink()
        artifacts.store_board("boards/b.png", np.full((300, 300), 7, np.uint8))


def test_a_read_only_data_folder_is_storage_unavailable(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", "1m") as disk:
        remount(disk, "ro")
        with pytest.raises(StorageUnavailable, match="cannot be written") as raised:
            Artifacts(disk).store_board("boards/b.png", np.zeros((9, 9), np.uint8))
        assert not isinstance(raised.value, StorageFull)


def test_a_file_the_database_names_but_the_folder_lacks_is_the_deployments_fault(
    tmp_path: Path,
) -> None:
    artifacts = Artifacts(tmp_path)
    with pytest.raises(StorageUnavailable, match="SUDOKU_BATCH_DATA_DIR"):
        artifacts.read_image("boards/never-stored.png")
    with pytest.raises(StorageUnavailable, match="SUDOKU_BATCH_DATA_DIR"):
        artifacts.local_file("batches/1/uploads/0000-book.pdf")
    gone = Artifacts(tmp_path / "unmounted")
    with pytest.raises(StorageUnavailable, match="is missing") as raised:
        gone.store_board("boards/b.png", np.zeros((9, 9), np.uint8))
    assert str(tmp_path) not in raised.value.message  # API clients see it: no host path
    assert not (tmp_path / "unmounted").exists()  # never made by a write: the API makes it


def test_files_of_a_batch_not_kept_are_removed_with_their_folders(tmp_path: Path) -> None:
    artifacts = Artifacts(tmp_path)
    kept = artifacts.upload(1, 0, "a.png")
    artifacts.save_stream(kept, io.BytesIO(b"a"))
    dropped = [artifacts.upload(2, ordinal, "b.png") for ordinal in range(2)]
    for relative in dropped:
        artifacts.save_stream(relative, io.BytesIO(b"b"))
    artifacts.remove(dropped)
    assert [p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")] == [
        "batches",
        "batches/1",
        "batches/1/uploads",
        "batches/1/uploads/0000-a.png",
    ]
