"""``sudoku_batch.follow``: how often a follower asks, against a fake API that holds requests as
the real one does (``api.batch_status``), for a batch that moves on its own clock. The clock is
virtual (the follower's and the batch's both), so the counts and the lags are exact and no
busy machine can change them."""

from __future__ import annotations

import math
from typing import Any

import pytest

from sudoku_batch import follow
from sudoku_batch.follow import follow_batch


class VirtualClock:
    """``time.monotonic`` and ``time.sleep`` for the follower: a sleep moves the clock on."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += max(0.0, seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> VirtualClock:
    virtual = VirtualClock()
    monkeypatch.setattr(follow, "time", virtual)
    return virtual


class FakeBatch:
    """A batch whose work moves every ``every`` seconds after a pause of ``still`` seconds,
    ``moves`` times, then finishes; it answers a held request as ``api.batch_status`` does."""

    def __init__(
        self, clock: VirtualClock, moves: int, every: float, *, still: float = 0.0, tokens=True
    ):
        self.clock, self.started = clock, clock.now
        self.moves, self.every, self.still, self.tokens = moves, every, still, tokens
        self.requests: list[dict[str, Any]] = []

    def moved(self, at: float) -> int:
        elapsed = at - self.started - self.still
        return 0 if elapsed < 0 else min(self.moves, int(elapsed / self.every + 1e-9))

    def move_time(self, move: int) -> float:
        """When the ``move``-th move happens."""
        return self.started + self.still + move * self.every

    def ends_at(self) -> float:
        return self.move_time(self.moves)

    def status(self) -> dict[str, Any]:
        moved = self.moved(self.clock.now)
        status = {"finished": moved == self.moves, "unfinished": self.moves - moved}
        return {**status, "progress": str(moved)} if self.tokens else status

    def ask(self, params: dict[str, Any]) -> dict[str, Any]:
        """Held until the batch ends, or moves past ``since`` and ``pace`` has passed, or
        ``wait`` is over: the clock jumps to the first of these."""
        self.requests.append(params)
        if "since" in params:
            asked, since = self.clock.now, int(params["since"])
            next_move = self.move_time(since + 1)
            answers = [
                asked + params["wait"],
                self.ends_at(),
                max(next_move, asked + params["pace"]),
            ]
            self.clock.now = max(asked, min(answers))
        return self.status()


def test_a_moving_batch_is_asked_about_twice_a_second_and_its_end_seen_at_once(clock) -> None:
    batch = FakeBatch(clock, moves=40, every=0.05)  # 2 s of work, 20 moves a second
    seen: list[dict[str, Any]] = []
    last = follow_batch(batch.ask, seen.append)
    assert last["finished"] and seen[-1] is last
    assert len(batch.requests) <= 2.0 * 2 + 2, len(batch.requests)  # two a second at most
    assert clock.now == pytest.approx(batch.ends_at())  # the end answered at once, no pause
    assert all(r["since"] for r in batch.requests[1:]) and batch.requests[0] == {}


def test_a_still_batch_costs_a_held_request_not_a_poll_per_pause(clock) -> None:
    batch = FakeBatch(clock, moves=1, every=0.01, still=2.0)  # nothing for 2 s, then the end
    follow_batch(batch.ask)
    assert len(batch.requests) <= 3, batch.requests
    assert clock.now == pytest.approx(batch.ends_at())


def test_an_api_without_progress_tokens_is_polled_at_the_same_pace(clock) -> None:
    batch = FakeBatch(clock, moves=4, every=0.25, tokens=False)  # 1 s
    assert follow_batch(batch.ask)["finished"]
    assert batch.requests == [{}] * len(batch.requests)
    assert len(batch.requests) == math.ceil(1.0 / follow.FOLLOW_SECONDS) + 1
