"""The API with its database out of reach answers 503 with a reason, not a bare 500."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from sudoku_batch.api.app import create_app
from sudoku_batch.settings import Settings
from tests.integration.conftest import free_port


def test_a_database_outage_answers_503_and_health_says_so(tmp_path: Path) -> None:
    closed = free_port()
    settings = Settings(
        data_dir=tmp_path,
        database_url=f"postgresql://postgres@127.0.0.1:{closed}/none",
        broker_url=f"redis://127.0.0.1:{closed}/0",
    )
    with TestClient(create_app(settings)) as client:
        response = client.get("/batches", headers={"Authorization": "Bearer sbk_anything"})
        assert response.status_code == 503
        assert "database is unreachable" in response.json()["detail"]
        assert response.headers["retry-after"]
        health = client.get("/health")
        assert health.status_code == 503
        assert health.json() == {
            "database": False,
            "broker": False,
            "storage": True,  # the data folder is fine: only the services are down
            "problem": None,
        }
