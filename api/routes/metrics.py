"""``/metrics``: the server's state in Prometheus's text format, behind an API key like every
route but ``/health`` (Prometheus sends it with ``authorization: {credentials: KEY}``).

Collected at each scrape, from the rows (``store.metrics``) and the broker's queues: nothing is
counted in this process, so every API replica answers the same and none loses its figures
when it restarts. How to scale workers on these is in docs/server.md.
"""

from __future__ import annotations

from collections.abc import Iterator

import redis
from fastapi import APIRouter, Response
from kombu.transport.redis import PRIORITY_STEPS, Channel
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy.orm import Session

from sudoku_batch.api.auth import ApiKeyId
from sudoku_batch.api.deps import AppSettings, Db
from sudoku_batch.jobs.table import queues
from sudoku_batch.settings import Settings
from sudoku_batch.store import metrics

router = APIRouter()
PREFIX = "sudoku_batch"


@router.get("/metrics", response_class=Response)
def scrape(_key: ApiKeyId, db: Db, settings: AppSettings) -> Response:
    """The server's metrics, Prometheus text format (queue depth per stage, the oldest waiting
    subject's age, stage run durations, outcomes by error code, batches in flight)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ServerCollector(db, settings))
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)


class ServerCollector(Collector):
    def __init__(self, db: Session, settings: Settings):
        self.db = db
        self.settings = settings

    def collect(self) -> Iterator[Metric]:
        by_stage = metrics.stage_queues(self.db)
        waiting = GaugeMetricFamily(
            f"{PREFIX}_waiting",
            "Subjects (input files, pages, puzzles) waiting for a stage: queued (not yet taken "
            "by a worker) or running",
            labels=["stage", "state"],
        )
        oldest = GaugeMetricFamily(
            f"{PREFIX}_oldest_wait_seconds",
            "How long the longest-waiting queued subject of a stage has waited (0: none waits)",
            labels=["stage"],
        )
        for stage, queue in by_stage.items():
            waiting.add_metric([str(stage), "queued"], queue.queued)
            waiting.add_metric([str(stage), "running"], queue.running)
            oldest.add_metric([str(stage)], metrics.oldest_wait_seconds(queue))
        yield waiting
        yield oldest
        yield from self._broker()
        yield self._durations()
        outcomes = GaugeMetricFamily(
            f"{PREFIX}_outcomes",
            "Input files, pages and puzzles by status and error code (a puzzle's verdict, or "
            "why it failed: docs/errors.md)",
            labels=["subject", "status", "error_code"],
        )
        for outcome in metrics.outcomes(self.db):
            outcomes.add_metric(
                [outcome.subject, outcome.status, outcome.error_code], outcome.count
            )
        yield outcomes
        yield GaugeMetricFamily(
            f"{PREFIX}_batches_in_flight",
            "Batches with work still waiting for a stage",
            value=metrics.batches_in_flight(self.db),
        )

    def _durations(self) -> HistogramMetricFamily:
        durations = HistogramMetricFamily(
            f"{PREFIX}_stage_run_seconds",
            "How long stage runs took, over the last run of each stage on each subject the "
            "database holds; task: the server task it ran in, by its stage (a solve settled "
            "inline in the OCR task: ocr), empty when embedded or refused by the API",
            labels=["stage", "task"],
        )
        for runs in metrics.run_durations(self.db):
            buckets = [
                (str(bound), count)
                for bound, count in zip(metrics.RUN_SECONDS_BUCKETS, runs.cumulative, strict=True)
            ]
            buckets.append(("+Inf", runs.count))
            durations.add_metric([runs.stage, runs.task], buckets, runs.total_seconds)
        return durations

    def _broker(self) -> Iterator[Metric]:
        """The messages in each Celery queue (all its priority lists), as KEDA's Redis scaler
        would count them; none when the broker does not answer."""
        prefix = self.settings.redis_key_prefix
        try:
            with redis.Redis.from_url(self.settings.broker_url, socket_timeout=3) as client:
                with client.pipeline(transaction=False) as lengths:
                    for queue in queues():
                        for step in PRIORITY_STEPS:
                            suffix = f"{Channel.sep}{step}" if step else ""
                            lengths.llen(f"{prefix}{queue}{suffix}")
                    counts = lengths.execute()
        except redis.RedisError:
            yield GaugeMetricFamily(f"{PREFIX}_broker_up", "Whether the broker answered", 0)
            return
        yield GaugeMetricFamily(f"{PREFIX}_broker_up", "Whether the broker answered", 1)
        messages = GaugeMetricFamily(
            f"{PREFIX}_queue_messages",
            "Messages waiting in each Celery queue of the broker",
            labels=["queue"],
        )
        steps = len(PRIORITY_STEPS)
        for number, queue in enumerate(queues()):
            messages.add_metric([queue], sum(counts[number * steps : (number + 1) * steps]))
        yield messages
