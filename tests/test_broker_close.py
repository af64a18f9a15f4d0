"""A worker survives kombu 5.7.0's calls on a Redis channel whose connection has dropped
(workers.broker_close): acknowledging, or giving unacked messages back, is skipped there, and
raises as before on a live connection."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from kombu.transport import redis

from sudoku_batch.workers import broker_close  # noqa: F401 - mends kombu at import


def _qos(connection) -> redis.QoS:
    qos = redis.QoS.__new__(redis.QoS)
    qos.channel = SimpleNamespace(connection=connection)

    def dropped(tag):
        raise AttributeError("'NoneType' object has no attribute 'client'")

    qos._remove_from_indices = dropped
    return qos


def test_an_ack_on_a_dropped_connection_is_skipped() -> None:
    assert _qos(None).ack("tag") is None


def test_an_ack_on_a_live_connection_still_raises() -> None:
    with pytest.raises(AttributeError):
        _qos(SimpleNamespace(client=object())).ack("tag")
