"""``/metrics`` (issue 29, item 4): behind an API key, and its figures follow a batch through a
real worker: queued work and batches in flight rise when it is sent and fall when it is done;
stage run durations and outcomes by error code grow by its puzzles."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from sudoku_batch.api.app import create_app
from sudoku_batch.settings import Settings
from tests.integration.conftest import Service, api_client, celery_argv, settings_env, wait_until

pytestmark = pytest.mark.services

LIMIT = 180.0  # a bound against a hang, not an expectation
PUZZLES = "\n".join(
    [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "." * 81,  # several solutions
        "55" + "." * 79,  # clashing givens
    ]
)

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient) -> Samples:
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((f"sudoku_batch_{name}", tuple(sorted(labels.items()))), 0.0)


def puzzles_by_outcome(samples: Samples) -> dict[tuple[str, str], float]:
    return {
        (labels["status"], labels["error_code"]): count
        for (name, pairs), count in samples.items()
        if name == "sudoku_batch_outcomes" and (labels := dict(pairs))["subject"] == "puzzles"
    }


def test_metrics_need_a_key(make_settings: Callable[[str], Settings]) -> None:
    with TestClient(create_app(make_settings("metrics-key"))) as client:
        assert client.get("/metrics").status_code == 401
        wrong = client.get("/metrics", headers={"Authorization": "Bearer not-a-key"})
        assert wrong.status_code == 401


def test_metrics_follow_a_batch_through_a_worker(
    make_settings: Callable[[str], Settings], tmp_path: Path
) -> None:
    settings = make_settings("metrics")
    with api_client(settings) as client:
        before = scrape(client)
        assert value(before, "broker_up") == 1
        answer = client.post("/text-batches", files=[("files", ("p.txt", PUZZLES.encode()))])
        assert answer.status_code == 201, answer.text
        batch_id = answer.json()["batch_id"]

        sent = scrape(client)
        assert value(sent, "batches_in_flight") == value(before, "batches_in_flight") + 1
        queued = ("waiting", {"stage": "ingest", "state": "queued"})
        assert value(sent, queued[0], **queued[1]) == value(before, queued[0], **queued[1]) + 1
        assert value(sent, "queue_messages", queue="ingest") == 1  # this test's own prefix
        assert value(sent, "oldest_wait_seconds", stage="ingest") >= 0

        worker = Service(
            "worker",
            celery_argv(
                "worker", "--pool=solo", "--queues=ingest,solve", "--hostname=metrics@test",
                "--without-mingle", "--without-gossip",
            ),
            settings_env(settings),
            tmp_path,
        )  # fmt: skip
        try:
            wait_until(
                lambda: client.get(f"/batches/{batch_id}").json()["finished"],
                LIMIT,
                "the batch to finish",
            )
        finally:
            worker.stop()
        done = scrape(client)

    assert value(done, "batches_in_flight") == value(before, "batches_in_flight")
    assert value(done, queued[0], **queued[1]) == value(before, queued[0], **queued[1])
    assert value(done, "queue_messages", queue="ingest") == 0
    solves = {"stage": "solve", "task": "solve"}
    grown = value(done, "stage_run_seconds_count", **solves) - value(
        before, "stage_run_seconds_count", **solves
    )
    assert grown == 3
    assert value(done, "stage_run_seconds_bucket", le="+Inf", **solves) == value(
        done, "stage_run_seconds_count", **solves
    )
    assert value(done, "stage_run_seconds_sum", **solves) > value(
        before, "stage_run_seconds_sum", **solves
    )
    outcomes_before, outcomes_done = puzzles_by_outcome(before), puzzles_by_outcome(done)
    changed = {
        outcome: count - outcomes_before.get(outcome, 0)
        for outcome, count in outcomes_done.items()
        if count != outcomes_before.get(outcome, 0)
    }
    assert changed[("solved", "")] == 1
    assert changed[("multiple_solutions", "multiple_solutions")] == 1
    assert sum(changed.values()) == 3  # the clashing one under its own code
