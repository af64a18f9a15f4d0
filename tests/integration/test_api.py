"""The HTTP API on the test database and a Redis prefix of its own (no workers: the queued
ingest tasks are checked in Redis and left there)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import redis
from fastapi.testclient import TestClient

from api.app import create_app
from settings import Settings

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def settings(make_settings: Callable[[str], Settings]) -> Settings:
    return make_settings("api")


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as client:
        yield client


def test_submit_stores_files_queues_ingest_and_reports_pending(
    client: TestClient, settings: Settings
) -> None:
    response = client.post(
        "/batches",
        files=[
            ("files", ("scans/page one.png", b"not really a png")),
            ("files", ("book.pdf", b"%PDF-1.4")),
        ],
        data={"label": "api test"},
    )
    assert response.status_code == 201, response.text
    batch = response.json()
    assert [f["name"] for f in batch["input_files"]] == ["scans/page one.png", "book.pdf"]
    stored = list((settings.data_dir / "batches" / str(batch["batch_id"]) / "uploads").iterdir())
    assert sorted(path.read_bytes() for path in stored) == [b"%PDF-1.4", b"not really a png"]
    queue = redis.Redis.from_url(settings.broker_url)
    assert queue.llen(f"{settings.redis_key_prefix}ingest") == 2

    status = client.get(f"/batches/{batch['batch_id']}").json()
    assert status["inputs"] == {"pending": 2} and not status["finished"]
    assert client.get(f"/batches/{batch['batch_id']}/results").json() == []


def test_unknown_ids_answer_404_with_a_reason(client: TestClient) -> None:
    for url in (
        "/batches/999999",
        "/batches/999999/results",
        "/puzzles/999999",
        "/puzzles/999999/render.png",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "999999" in response.json()["detail"]


def test_bad_requests_answer_422(client: TestClient) -> None:
    assert client.post("/batches").status_code == 422  # no files
    assert client.get("/batches/not-a-number").status_code == 422
