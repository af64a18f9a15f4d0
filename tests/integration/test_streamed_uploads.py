"""Uploads stream into the store as they arrive (``api.streamed_form``), on both stores: a
large file goes through the real app with no file of this host's temporary folder open and
its memory within two of the store's parts; a client gone mid-file leaves nothing stored."""

from __future__ import annotations

import asyncio
import os
import tempfile
import tracemalloc
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from bench.seaweedfs import SeaweedFS
from sudoku_batch.api.app import create_app
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory, transaction
from sudoku_batch.store.keys import create_key
from sudoku_batch.store.s3_storage import PART_BYTES
from tests.test_storage import pattern

MB = 2**20
PIECE = 64 * 1024
BOUNDARY = "streamed-upload-test"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(params=["local", "s3"])
def settings(request: pytest.FixtureRequest, make_settings: Callable[[str], Settings]) -> Settings:
    made = make_settings("streamed")
    if request.param == "local":
        return made
    server: SeaweedFS = request.getfixturevalue("seaweedfs")
    return made.model_copy(
        update={
            "storage_url": server.storage_url(f"streamed-{uuid.uuid4().hex[:8]}"),
            "aws_endpoint_url": server.endpoint,
            **{
                name.lower(): value
                for name, value in server.env().items()
                if name != "AWS_ENDPOINT_URL"
            },
        }
    )


@pytest.fixture
def spool_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This process's temporary folder (where Starlette spools uploads), empty and watched."""
    folder = tmp_path / "tmpdir"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def api_key(settings: Settings) -> str:
    engine = make_engine(settings.database_url)
    try:
        with transaction(make_session_factory(engine)) as db:
            return create_key(db, f"streamed-{uuid.uuid4().hex[:8]}")
    finally:
        engine.dispose()


def open_files_under(folder: Path) -> int:
    """Files this process holds open under ``folder`` (a deleted one too: listing the folder
    would not show it)."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        count += target.startswith(f"{folder}/")
    return count


def multipart_head(name: str) -> bytes:
    return (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()


TAIL = f"\r\n--{BOUNDARY}--\r\n".encode()


def stored_keys(settings: Settings) -> list[str]:
    """Every file of the store but its own markers."""
    from sudoku_batch.store.storage import open_storage

    storage = open_storage(settings)
    if settings.storage_location().scheme == "s3":
        client, location = storage.client, settings.storage_location()
        listed = client.list_objects_v2(Bucket=location.bucket, Prefix=storage.prefix)
        uploads = client.list_multipart_uploads(Bucket=location.bucket, Prefix=storage.prefix)
        keys = [o["Key"][len(storage.prefix) :] for o in listed.get("Contents", [])]
        keys += [f"unfinished {u['Key']}" for u in uploads.get("Uploads", [])]
    else:
        folder = settings.data_dir
        keys = [str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()]
    return sorted(k for k in keys if not k.startswith(".sudoku-batch"))


def test_a_large_upload_streams_into_the_store(settings: Settings, spool_dir: Path) -> None:
    size = 24 * MB
    app = create_app(settings)
    open_during: list[int] = []

    async def body() -> AsyncIterator[bytes]:
        yield multipart_head("big.png")
        for offset in range(0, size, PIECE):
            piece = PNG + pattern(0, PIECE - len(PNG)) if offset == 0 else pattern(offset, PIECE)
            yield piece
            open_during.append(open_files_under(spool_dir))
        yield TAIL

    async def send() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.post(
                "/batches",
                content=body(),
                headers={
                    "Authorization": f"Bearer {api_key(settings)}",
                    "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
                },
            )

    tracemalloc.start()
    try:
        answer = asyncio.run(send())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer.status_code == 201, answer.text
    assert max(open_during) == 0
    assert peak < 2 * PART_BYTES, f"peak {peak / MB:.1f} MB"
    print(f"\n{settings.storage_location().scheme}: 24 MB upload, peak {peak / MB:.1f} MB traced")
    keys = stored_keys(settings)
    assert len(keys) == 1 and keys[0].endswith("big.png"), keys
    data = create_app(settings).state.artifacts.storage.get_bytes(keys[0])
    assert len(data) == size
    assert data[:PIECE] == PNG + pattern(0, PIECE - len(PNG))
    assert data[-PIECE:] == pattern(size - PIECE, PIECE)


def test_a_client_gone_mid_file_leaves_nothing_stored(settings: Settings) -> None:
    app = create_app(settings)
    sent_before_leaving = PART_BYTES + 4 * MB  # past the first part sent to an object store
    head = multipart_head("gone.png")
    headers = [
        (b"authorization", f"Bearer {api_key(settings)}".encode()),
        (b"content-type", f"multipart/form-data; boundary={BOUNDARY}".encode()),
        (b"content-length", str(len(head) + 24 * MB + len(TAIL)).encode()),
        (b"host", b"test"),
    ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/batches",
        "raw_path": b"/batches",
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("test", 80),
    }
    pieces = iter(
        [head, PNG + pattern(0, PIECE - len(PNG))]
        + [pattern(o, PIECE) for o in range(PIECE, sent_before_leaving, PIECE)]
    )
    answered: list[dict] = []

    async def receive() -> dict:
        piece = next(pieces, None)
        if piece is None:
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": piece, "more_body": True}

    async def send(message: dict) -> None:
        answered.append(message)

    async def run() -> None:
        async with app.router.lifespan_context(app):
            await app(scope, receive, send)

    asyncio.run(run())
    assert answered[0]["status"] == 400  # FastAPI's answer to a body it could not read
    assert stored_keys(settings) == []


def test_refused_files_leave_nothing_staged(settings: Settings) -> None:
    key = api_key(settings)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {key}"}) as api:
        kept = api.post(
            "/batches",
            files=[("files", ("a.png", PNG + b"a")), ("files", ("b.png", b"no image"))],
        )
        assert kept.status_code == 201, kept.text
        assert [f["error_code"] for f in kept.json()["input_files"]] == [None, "unreadable_input"]
        refused = api.post("/batches", files=[("files", ("c.txt", b"no image"))])
        assert refused.status_code == 415, refused.text
    keys = stored_keys(settings)
    assert len(keys) == 1 and keys[0].endswith("a.png"), keys


def test_a_file_over_the_limit_is_counted_not_stored(settings: Settings) -> None:
    settings = settings.model_copy(update={"max_file_mb": 1 / 1024})
    key = api_key(settings)
    with TestClient(create_app(settings), headers={"Authorization": f"Bearer {key}"}) as api:
        refused = api.post("/batches", files=[("files", ("big.png", PNG + bytes(2048)))])
    assert refused.status_code == 413, refused.text
    assert stored_keys(settings) == []
