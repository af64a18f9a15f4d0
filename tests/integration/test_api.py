"""The HTTP API on the test database and a Redis prefix of its own (no workers: the queued
ingest tasks are checked in Redis and left there): keys, ownership, limits, paging."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.api.app import create_app
from sudoku_batch.settings import Settings
from sudoku_batch.store.models import Batch, InputFile
from tests.integration.conftest import add_read_puzzle, api_client, queued

pytestmark = pytest.mark.services

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
PDF = b"%PDF-1.4\n"


@pytest.fixture(scope="module")
def settings(make_settings: Callable[[str], Settings]) -> Settings:
    return make_settings("api").model_copy(update={"max_file_mb": 1.0, "max_request_mb": 2.0})


@pytest.fixture(scope="module")
def client(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


@pytest.fixture(scope="module")
def stranger(settings: Settings) -> Iterator[TestClient]:
    with api_client(settings) as client:
        yield client


def submit(client: TestClient, *files: tuple[str, bytes], label: str | None = None) -> dict:
    response = client.post(
        "/batches",
        files=[("files", file) for file in files],
        data={"label": label} if label else {},
    )
    assert response.status_code == 201, response.text
    return response.json()


def test_submit_stores_files_queues_ingest_and_reports_pending(
    client: TestClient, settings: Settings, sessions: sessionmaker[Session]
) -> None:
    before = len(queued(settings, "ingest"))
    batch = submit(client, ("scans/page one.png", PNG), ("book.pdf", PDF), label="api test")
    assert batch["queued"] and uuid.UUID(batch["batch_id"])
    assert [f["name"] for f in batch["input_files"]] == ["page one.png", "book.pdf"]
    with sessions() as db:
        row = db.scalars(select(Batch).where(Batch.public_id == batch["batch_id"])).one()
    stored = list((settings.data_dir / "batches" / str(row.id) / "uploads").iterdir())
    assert sorted(path.read_bytes() for path in stored) == [PDF, PNG]
    assert len(queued(settings, "ingest")) == before + 2

    status = client.get(f"/batches/{batch['batch_id']}").json()
    assert status["inputs"] == {"pending": 2} and not status["finished"]
    assert status["stages"]["ingest"]["queued"] == 2
    assert status["stages"]["ingest"]["oldest_wait_seconds"] >= 0
    results = client.get(f"/batches/{batch['batch_id']}/results").json()
    assert results == {"items": [], "total": 0, "limit": 100, "offset": 0}


def test_every_route_but_health_needs_a_live_key(settings: Settings) -> None:
    with TestClient(create_app(settings)) as anonymous:
        for method, url in (
            ("GET", "/batches"),
            ("POST", "/batches"),
            ("POST", "/text-batches"),
            ("GET", f"/batches/{uuid.uuid4()}"),
            ("GET", f"/batches/{uuid.uuid4()}/results"),
            ("GET", f"/batches/{uuid.uuid4()}/report.html"),
            ("GET", f"/puzzles/{uuid.uuid4()}"),
            ("GET", f"/puzzles/{uuid.uuid4()}/render.png"),
        ):
            response = anonymous.request(method, url)
            assert response.status_code == 401, url
            assert response.headers["www-authenticate"] == "Bearer"
        wrong = anonymous.get("/batches", headers={"Authorization": "Bearer sbk_not-a-key"})
        assert wrong.status_code == 401
        assert anonymous.get("/health").json() == {
            "database": True,
            "broker": True,
            "storage": True,
            "problem": None,
        }


def test_a_revoked_key_is_refused(settings: Settings, sessions: sessionmaker[Session]) -> None:
    from sudoku_batch.store.db import transaction
    from sudoku_batch.store.keys import revoke_key

    name = f"revoked-{uuid.uuid4().hex[:8]}"
    with api_client(settings, name) as client:
        assert client.get("/batches").status_code == 200
        with transaction(sessions) as db:
            revoke_key(db, name)
        assert client.get("/batches").status_code == 401


def test_another_keys_batch_and_puzzles_do_not_exist(
    client: TestClient, stranger: TestClient, sessions: sessionmaker[Session]
) -> None:
    batch = submit(client, ("grid.png", PNG))
    puzzle_id = add_read_puzzle(sessions, batch["batch_id"], "grid.png")
    urls = [
        f"/batches/{batch['batch_id']}",
        f"/batches/{batch['batch_id']}/results",
        f"/puzzles/{puzzle_id}",
        f"/batches/{batch['batch_id']}/report.html",
        f"/puzzles/{puzzle_id}/render.png",
    ]
    for url in urls:
        assert stranger.get(url).status_code == 404, url
    assert batch["batch_id"] not in stranger.get("/batches").text
    assert client.get(urls[2]).json()["puzzle_id"] == str(puzzle_id)
    report = client.get(urls[3])
    assert report.status_code == 200 and report.headers["content-type"].startswith("text/html")
    assert "Book check" in report.text and "grid.png" in report.text


def test_unknown_ids_answer_404_with_a_reason(client: TestClient) -> None:
    unknown = uuid.uuid4()
    for url in (
        f"/batches/{unknown}",
        f"/batches/{unknown}/results",
        f"/puzzles/{unknown}",
        f"/puzzles/{unknown}/render.png",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert str(unknown) in response.json()["detail"]


def test_row_ids_are_not_ids_in_urls(client: TestClient) -> None:
    assert client.get("/batches/1").status_code == 422
    assert client.get("/puzzles/1").status_code == 422


def test_oversize_uploads_answer_413(client: TestClient) -> None:
    big_file = PNG + b"\x00" * (2**20)  # over the 1 MB per file
    response = client.post("/batches", files=[("files", ("big.png", big_file))])
    assert response.status_code == 413, response.text
    halves = [("files", (f"{i}.png", PNG + b"\x00" * (2**19 + 2**18))) for i in range(3)]
    assert client.post("/batches", files=halves).status_code == 413  # over 2 MB in all


def test_content_is_checked_by_its_bytes_not_its_declared_type(client: TestClient) -> None:
    lying = ("files", ("notes.png", b"just some text", "image/png"))
    response = client.post("/batches", files=[lying])
    assert response.status_code == 415 and "notes.png" in response.json()["detail"]
    binary = ("files", ("p.txt", PNG, "text/plain"))
    assert client.post("/text-batches", files=[binary]).status_code == 415


def test_path_like_names_are_never_echoed_as_client_paths(client: TestClient) -> None:
    names = ["/home/alice/secret/p1.png", "C:\\Users\\bob\\scan 2.pdf", "../../etc/p3.png"]
    batch = submit(client, (names[0], PNG), (names[1], PDF), (names[2], PNG))
    assert [f["name"] for f in batch["input_files"]] == ["p1.png", "scan 2.pdf", "p3.png"]
    detail = client.get(f"/batches/{batch['batch_id']}").text
    for fragment in ("alice", "Users", "bob", "etc/"):
        assert fragment not in detail


def test_batches_are_listed_newest_first_paged_and_filtered(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    with api_client(settings) as client:
        made = [submit(client, ("a.png", PNG), label=f"b{i}")["batch_id"] for i in range(3)]
        with sessions.begin() as db:  # the oldest one finished
            oldest = db.scalars(select(Batch).where(Batch.public_id == made[0])).one()
            db.execute(
                update(InputFile).where(InputFile.batch_id == oldest.id).values(status="failed")
            )
        page = client.get("/batches", params={"limit": 2}).json()
        assert [b["batch_id"] for b in page["items"]] == made[::-1][:2]
        assert page["total"] == 3
        rest = client.get("/batches", params={"limit": 2, "offset": 2}).json()
        assert [b["batch_id"] for b in rest["items"]] == [made[0]]
        finished = client.get("/batches", params={"status": "finished"}).json()
        assert [b["batch_id"] for b in finished["items"]] == [made[0]]
        running = client.get("/batches", params={"status": "running"}).json()
        assert running["total"] == 2


def test_bad_requests_answer_422(client: TestClient) -> None:
    assert client.post("/batches").status_code == 422  # no files
    assert client.get("/batches/not-a-uuid").status_code == 422
    assert client.get("/batches", params={"status": "lost"}).status_code == 422


def test_the_openapi_schema_types_every_response(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    results = schema["paths"]["/batches/{batch_id}/results"]["get"]["responses"]
    assert results["200"]["content"]["application/json"]["schema"]["$ref"].endswith("ResultPage")
    assert {"401", "404", "503"} <= set(results)
    assert "HTTPBearer" in schema["components"]["securitySchemes"]
