"""``sudoku_batch.follow``: how often a follower asks, against a fake API that holds requests as
the real one does (``api.batch_status``), for a batch that moves on its own clock."""

from __future__ import annotations

import time
from typing import Any

from sudoku_batch.follow import follow_batch


class FakeBatch:
    """A batch whose work moves every ``every`` seconds after each of ``pauses`` (a pause of
    that many seconds first), then finishes."""

    def __init__(self, moves: int, every: float, *, still: float = 0.0, tokens: bool = True):
        self.started = time.monotonic()
        self.moves, self.every, self.still, self.tokens = moves, every, still, tokens
        self.requests: list[dict[str, Any]] = []

    def moved(self) -> int:
        elapsed = time.monotonic() - self.started - self.still
        return 0 if elapsed < 0 else min(self.moves, int(elapsed / self.every))

    def ends_at(self) -> float:
        return self.started + self.still + self.moves * self.every

    def status(self) -> dict[str, Any]:
        moved = self.moved()
        status = {"finished": moved == self.moves, "unfinished": self.moves - moved}
        return {**status, "progress": str(moved)} if self.tokens else status

    def ask(self, params: dict[str, Any]) -> dict[str, Any]:
        self.requests.append(params)
        if "since" in params:
            asked = time.monotonic()
            while not self.status()["finished"]:
                held = time.monotonic() - asked
                moved = self.status()["progress"] != params["since"]
                if held >= params["wait"] or (moved and held >= params["pace"]):
                    break
                time.sleep(0.01)
        return self.status()


def test_a_moving_batch_is_asked_about_twice_a_second_and_its_end_seen_promptly() -> None:
    batch = FakeBatch(moves=40, every=0.05)  # 2 s of work, 20 moves a second
    seen: list[dict[str, Any]] = []
    last = follow_batch(batch.ask, seen.append)
    lag = time.monotonic() - batch.ends_at()
    assert last["finished"] and seen[-1] is last
    assert len(batch.requests) <= 2.0 * 2 + 2, len(batch.requests)  # two a second at most
    assert lag < 0.25  # the end is answered at once, not after a pause
    assert all(r["since"] for r in batch.requests[1:]) and batch.requests[0] == {}


def test_a_still_batch_costs_a_held_request_not_a_poll_per_pause() -> None:
    batch = FakeBatch(moves=1, every=0.01, still=2.0)  # nothing for 2 s, then the end
    follow_batch(batch.ask)
    assert len(batch.requests) <= 3, batch.requests
    assert time.monotonic() - batch.ends_at() < 1.0


def test_an_api_without_progress_tokens_is_polled_at_the_same_pace() -> None:
    batch = FakeBatch(moves=4, every=0.25, tokens=False)  # 1 s
    assert follow_batch(batch.ask)["finished"]
    assert batch.requests == [{}] * len(batch.requests)
    assert 2 <= len(batch.requests) <= 1.0 * 2 + 2
