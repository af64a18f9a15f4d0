"""kombu 5.7.0 fails to close a Redis channel whose connection has already dropped: giving the
unacknowledged messages back (``QoS.restore_unacked_once``) opens a client from the closed
connection, whose ``client`` is None, and the AttributeError ends the worker in a broker
outage. Skipped there, nothing is lost: the messages stay in kombu's unacked set, which the
transport restores after its visibility timeout, and the recovery sweep (``workers.sweep``)
sends every stalled subject again."""

from __future__ import annotations

import logging

from kombu.transport.virtual.base import QoS

logger = logging.getLogger(__name__)
_restore_unacked_once = QoS.restore_unacked_once


def restore_unacked_once(self: QoS, stderr=None):
    try:
        return _restore_unacked_once(self, stderr)
    except AttributeError:
        if getattr(self.channel.connection, "client", None) is not None:
            raise
        logger.warning("broker connection already closed: unacked messages left to restore")
        return None


QoS.restore_unacked_once = restore_unacked_once
