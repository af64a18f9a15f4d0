"""kombu 5.7.0 fails on a Redis channel whose connection has already dropped: giving the
unacknowledged messages back at close (``QoS.restore_unacked_once``), or acknowledging a task
that finished during the outage (the Redis ``QoS.ack``), opens a client from the closed
connection, and the AttributeError ends the worker in a broker outage. Skipped there, nothing
is lost: the messages stay in kombu's unacked set, which the transport restores after its
visibility timeout, and the recovery sweep (``workers.sweep``) sends every stalled subject again."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable

from kombu.transport import redis
from kombu.transport.virtual.base import QoS

logger = logging.getLogger(__name__)


def _closed(channel) -> bool:
    connection = getattr(channel, "connection", None)
    return connection is None or getattr(connection, "client", None) is None


def _skipped_when_closed(method: Callable, what: str) -> Callable:
    @functools.wraps(method)
    def mended(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except AttributeError:
            if not _closed(self.channel):
                raise
            logger.warning("broker connection already closed: %s left to restore", what)
            return None

    return mended


QoS.restore_unacked_once = _skipped_when_closed(QoS.restore_unacked_once, "unacked messages")
redis.QoS.ack = _skipped_when_closed(redis.QoS.ack, "an acknowledgement")
