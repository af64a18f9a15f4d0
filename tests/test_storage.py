"""Both stores behind one interface: the local folder and S3-compatible object storage (a
real SeaweedFS): the same answers to the same calls, uploads streamed in bounded pieces, a
bounded cache of fetched files, and every fault of the store ``StorageUnavailable``."""

from __future__ import annotations

import io
import os
import re
import socket
import subprocess
import tracemalloc
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest

from bench.seaweedfs import SeaweedFS, free_ports
from sudoku_batch.settings import InvalidSetting, Settings
from sudoku_batch.store.artifacts import Artifacts
from sudoku_batch.store.incoming import GRACE, INCOMING, remove_orphans
from sudoku_batch.store.local_storage import LocalFolder
from sudoku_batch.store.models import utc_now
from sudoku_batch.store.s3_storage import PART_BYTES, S3Storage
from sudoku_batch.store.storage import (
    CacheUnwritable,
    Storage,
    StorageFull,
    StorageUnavailable,
    open_storage,
)
from sudoku_batch.workers.cached_artifacts import CachedArtifacts
from tests.small_disk import small_disk

MB = 2**20


def s3_settings(server: SeaweedFS, tmp_path: Path, **more: str) -> Settings:
    return Settings.from_env(
        {
            **server.env(),
            "SUDOKU_BATCH_DATA_DIR": str(tmp_path / "data"),
            "SUDOKU_BATCH_STORAGE_URL": server.storage_url(f"unit-{uuid.uuid4().hex[:8]}"),
            **more,
        }
    )


@pytest.fixture(params=["local", "s3"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "local":
        made: Storage = LocalFolder(tmp_path / "data", make_folder=True)
    else:
        made = open_storage(s3_settings(request.getfixturevalue("seaweedfs"), tmp_path))
    made.prepare()
    yield made


class CountedReads(io.RawIOBase):
    """``size`` bytes of a pattern, recording the largest read asked of it."""

    def __init__(self, size: int):
        self.left = size
        self.largest = 0
        self.offset = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        self.largest = max(self.largest, len(buffer))
        count = min(len(buffer), self.left)
        buffer[:count] = pattern(self.offset, count)
        self.left -= count
        self.offset += count
        return count


CYCLE = bytes(range(251))


def pattern(offset: int, count: int) -> bytes:
    """``count`` bytes of the cycle 0..250 from ``offset``, made in about ``count`` bytes (the
    upload's peak memory is measured)."""
    start = offset % 251
    return (CYCLE[start:] + CYCLE * (count // 251 + 1))[:count]


def test_a_file_stored_reads_back_whole_in_pieces_and_by_path(storage: Storage) -> None:
    storage.put_bytes("batches/1/boards/b.png", b"board")
    storage.put_stream("batches/1/uploads/0000-book.pdf", io.BytesIO(b"%PDF-1.4 book"))
    assert storage.get_bytes("batches/1/boards/b.png") == b"board"
    assert b"".join(storage.chunks("batches/1/uploads/0000-book.pdf")) == b"%PDF-1.4 book"
    local = storage.local_file("batches/1/uploads/0000-book.pdf")
    assert local.suffix == ".pdf" and local.read_bytes() == b"%PDF-1.4 book"
    assert storage.exists("batches/1/boards/b.png")
    assert not storage.exists("batches/1/boards/other.png")


def test_an_upload_is_streamed_in_bounded_pieces(storage: Storage) -> None:
    size = 40 * MB
    source = CountedReads(size)
    tracemalloc.start()
    try:
        storage.put_stream("batches/1/uploads/0000-big.pdf", io.BufferedReader(source, MB))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert source.largest <= 8 * MB  # never the whole file in one read
    assert peak < 4 * PART_BYTES < size  # nor more than a few parts at once, whatever the size
    stored = storage.get_bytes("batches/1/uploads/0000-big.pdf")
    assert len(stored) == size and stored[-1000:] == pattern(size - 1000, 1000)


def test_a_staged_upload_is_stored_only_once_finished_and_moves_whole(storage: Storage) -> None:
    size = PART_BYTES + 3 * MB  # two parts in an object store
    staged = storage.open_upload("incoming/u/0000")
    for offset in range(0, size, MB):
        staged.write(pattern(offset, MB))
    assert not storage.exists("incoming/u/0000")
    staged.finish()
    storage.move("incoming/u/0000", "batches/1/uploads/0000-big.png")
    assert not storage.exists("incoming/u/0000")
    stored = storage.get_bytes("batches/1/uploads/0000-big.png")
    assert len(stored) == size and stored[-1000:] == pattern(size - 1000, 1000)
    small = storage.open_upload("incoming/v/0000")  # under one part: a single put
    small.write(b"small")
    small.finish()
    assert storage.get_bytes("incoming/v/0000") == b"small"


def test_an_aborted_upload_leaves_nothing(storage: Storage, tmp_path: Path) -> None:
    staged = storage.open_upload("incoming/w/0000")
    for offset in range(0, PART_BYTES + MB, MB):  # a part already sent to an object store
        staged.write(pattern(offset, MB))
    staged.abort()
    assert not storage.exists("incoming/w/0000")
    if isinstance(storage, LocalFolder):
        assert not (storage.folder / "incoming").exists()  # nor a partial file or its folders
    else:
        assert isinstance(storage, S3Storage)
        listed = storage.client.list_multipart_uploads(Bucket=storage.bucket, Prefix=storage.prefix)
        assert not listed.get("Uploads")


def test_a_file_stored_again_has_a_new_version(storage: Storage) -> None:
    assert storage.version("boards/b.png") is None
    first = storage.put_bytes("boards/b.png", b"first")
    assert storage.version("boards/b.png") == first
    second = storage.put_bytes("boards/b.png", b"second")
    assert second != first and storage.version("boards/b.png") == second
    assert storage.get_versioned("boards/b.png") == (b"second", second)


def test_a_file_the_database_names_but_the_store_lacks_is_the_deployments_fault(
    storage: Storage,
) -> None:
    for read in (storage.get_bytes, storage.local_file, storage.chunks):
        with pytest.raises(StorageUnavailable, match="database says"):
            read("batches/1/uploads/0000-gone.pdf")


def test_removed_files_are_gone_and_missing_ones_are_no_error(storage: Storage) -> None:
    keys = [f"batches/2/uploads/{i:04d}-b.png" for i in range(3)]
    for key in keys:
        storage.put_bytes(key, b"b")
    storage.put_bytes("batches/1/uploads/0000-a.png", b"a")
    storage.remove([*keys, "batches/9/never.png"])
    assert [storage.exists(key) for key in keys] == [False] * 3
    assert storage.exists("batches/1/uploads/0000-a.png")


def test_images_through_artifacts_and_the_worker_cache_read_back_as_stored(
    storage: Storage,
) -> None:
    colour = np.random.default_rng(3).integers(0, 256, (60, 80, 3), dtype=np.uint8)
    cached = CachedArtifacts(storage)
    stored = cached.store_board("boards/b.png", colour)
    np.testing.assert_array_equal(cached.read_image("boards/b.png"), stored)
    again = Artifacts(storage).store_board("boards/b.png", colour[::-1].copy())  # elsewhere
    np.testing.assert_array_equal(cached.read_image("boards/b.png"), again)
    assert Artifacts(storage).image_size("boards/b.png") == (80, 60)


def test_the_apis_store_is_told_from_another(storage: Storage, tmp_path: Path) -> None:
    assert storage.problem() is None
    if isinstance(storage, LocalFolder):
        elsewhere: Storage = LocalFolder(tmp_path / "elsewhere")
        (tmp_path / "elsewhere").mkdir()
    else:
        elsewhere = S3Storage(
            storage.bucket, "never-prepared", storage.client_options,
            cache_dir=tmp_path, cache_bytes=MB,
        )  # fmt: skip
    assert "not the API's" in (elsewhere.problem() or "")


def test_fetched_files_are_kept_within_the_cache_bound(seaweedfs: SeaweedFS, tmp_path) -> None:
    settings = s3_settings(seaweedfs, tmp_path, SUDOKU_BATCH_STORAGE_CACHE_MB="2.5")
    storage = open_storage(settings)
    keys = [f"batches/1/uploads/{i:04d}-p.pdf" for i in range(5)]
    for index, key in enumerate(keys):
        storage.put_bytes(key, bytes([index]) * MB)
    for key in keys:
        assert storage.local_file(key).read_bytes()[:1] == storage.get_bytes(key)[:1]
    cached = [p for p in storage.cache.folder.iterdir()]
    assert sum(p.stat().st_size for p in cached) <= 2.5 * MB
    assert storage.local_file(keys[-1]) in cached  # the newest stays
    assert storage.local_file(keys[0]).read_bytes() == bytes([0]) * MB  # fetched again


def unreachable_store(tmp_path: Path, endpoint: str) -> S3Storage:
    """A store whose endpoint (``endpoint``, with ``{port}`` for a port nothing listens on)
    does not answer."""
    (closed,) = free_ports(1)
    settings = Settings.from_env(
        {
            "SUDOKU_BATCH_DATA_DIR": str(tmp_path),
            "SUDOKU_BATCH_STORAGE_URL": "s3://nowhere/prefix",
            "AWS_ENDPOINT_URL": endpoint.format(port=closed),
            "AWS_ACCESS_KEY_ID": "key",
            "AWS_SECRET_ACCESS_KEY": "secret",
            "AWS_DEFAULT_REGION": "us-east-1",
        }
    )
    storage = open_storage(settings)
    assert isinstance(storage, S3Storage)
    return storage


def test_an_unreachable_store_is_unavailable_not_an_inputs_failure(tmp_path: Path) -> None:
    storage = unreachable_store(tmp_path, "http://127.0.0.1:{port}")
    with pytest.raises(StorageUnavailable, match="cannot be reached"):
        storage.put_stream("batches/1/uploads/0000-a.png", io.BytesIO(b"a"))
    with pytest.raises(StorageUnavailable, match="cannot be reached"):
        Artifacts(storage).read_image("boards/b.png")
    assert "cannot be reached" in (storage.problem() or "")
    storage.prepare()  # logged, never raised: /health reports it


def test_the_storage_url_chooses_the_store() -> None:
    assert isinstance(open_storage(Settings.from_env({})), LocalFolder)
    folder = Settings.from_env({"SUDOKU_BATCH_STORAGE_URL": "file:///srv/sudoku"})
    assert folder.storage_location().folder == Path("/srv/sudoku")
    bucket = Settings.from_env({"SUDOKU_BATCH_STORAGE_URL": "s3://books/a/b/"})
    assert (bucket.storage_location().bucket, bucket.storage_location().prefix) == ("books", "a/b")
    for wrong in ("s3:///no-bucket", "file://relative/path", "ftp://host/x"):
        with pytest.raises(InvalidSetting, match="SUDOKU_BATCH_STORAGE_URL"):
            Settings.from_env({"SUDOKU_BATCH_STORAGE_URL": wrong})


def test_the_cache_folders_of_ended_processes_are_removed(
    seaweedfs: SeaweedFS, tmp_path: Path
) -> None:
    settings = s3_settings(seaweedfs, tmp_path)
    ended = subprocess.Popen(["true"])
    ended.wait()
    root = settings.storage_cache_dir()
    host = socket.gethostname()
    stale, alive = root / f"{host}-{ended.pid}", root / f"{host}-1"
    # Another host's, whose name begins with this one's and a hyphen.
    longer = root / f"{host}-2-{ended.pid}"
    for folder in (stale, alive, longer, root / f"otherhost-{ended.pid}"):
        folder.mkdir(parents=True)
        (folder / "input.pdf").write_bytes(b"%PDF")
    storage = open_storage(settings)
    storage.put_bytes("batches/1/uploads/0000-a.pdf", b"%PDF-1.4")
    storage.local_file("batches/1/uploads/0000-a.pdf")
    assert sorted(p.name for p in root.iterdir()) == sorted(
        [f"{host}-1", f"{host}-{os.getpid()}", longer.name, f"otherhost-{ended.pid}"]
    )


def test_a_cache_that_cannot_be_written_is_the_disks_fault_not_the_stores(
    seaweedfs: SeaweedFS, tmp_path: Path
) -> None:
    settings = s3_settings(seaweedfs, tmp_path)
    settings.storage_cache_dir().parent.mkdir(parents=True)
    settings.storage_cache_dir().write_text("a file where the cache's folder goes")
    storage = open_storage(settings)
    storage.put_bytes("batches/1/uploads/0000-a.pdf", b"%PDF-1.4")
    with pytest.raises(CacheUnwritable, match="download cache") as raised:
        storage.local_file("batches/1/uploads/0000-a.pdf")
    assert "cannot be reached" not in raised.value.message


def test_a_full_cache_disk_is_said_to_be_full_not_the_store_unreachable(
    seaweedfs: SeaweedFS, tmp_path: Path
) -> None:
    settings = s3_settings(seaweedfs, tmp_path)
    with small_disk(settings.storage_cache_dir(), "1m"):
        storage = open_storage(settings)
        storage.put_bytes("batches/1/uploads/0000-a.pdf", b"%" * (3 * MB))
        with pytest.raises(StorageFull, match="download cache") as raised:
            storage.local_file("batches/1/uploads/0000-a.pdf")
        assert "cannot be reached" not in raised.value.message


def test_messages_name_the_endpoints_host_never_its_credentials(tmp_path: Path) -> None:
    storage = unreachable_store(tmp_path, "http://someone:hunter2@127.0.0.1:{port}/?token=hunter3")
    host = storage.endpoint
    with pytest.raises(StorageUnavailable, match="cannot be reached") as raised:
        storage.put_bytes("boards/b.png", b"b")
    for message in (raised.value.message, storage.problem() or ""):
        assert host.startswith("127.0.0.1:") and host in message
        assert not {"someone", "hunter2", "hunter3"} & set(re.split(r"\W+", message)), message


def test_refused_credentials_are_unavailable_and_said_by_the_health_check(
    seaweedfs: SeaweedFS, tmp_path: Path
) -> None:
    storage = open_storage(s3_settings(seaweedfs, tmp_path, AWS_SECRET_ACCESS_KEY="wrong"))
    with pytest.raises(StorageUnavailable, match="refused"):
        storage.put_bytes("boards/b.png", b"b")
    assert "refused" in (storage.problem() or "")


def test_uploads_a_crashed_api_left_staged_are_removed_after_the_grace_period(
    storage: Storage,
) -> None:
    finished = "incoming/a/0000-page.png"
    storage.put_bytes(finished, b"page")
    half_written = storage.open_upload("incoming/b/0000-book.pdf")
    half_written.write(b"%PDF-1.4")  # its request died here: never finished nor aborted
    storage.put_bytes("batches/1/uploads/0000-kept.png", b"claimed")
    now = utc_now()

    assert remove_orphans(storage, now) == 0  # within the grace period: a request may hold them
    assert storage.exists(finished)
    removed = remove_orphans(storage, now + GRACE + timedelta(minutes=1))
    # A local folder's half-written file is one too; object storage shows none until finished.
    assert removed == (2 if isinstance(storage, LocalFolder) else 1)
    assert storage.stale(INCOMING, now + GRACE + timedelta(minutes=1)) == []
    assert not storage.exists(finished)
    assert storage.get_bytes("batches/1/uploads/0000-kept.png") == b"claimed"
