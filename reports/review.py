"""What makes a grid need a person's look on the review pages: a verdict that is no answer,
a digit read with low confidence, or readings the solver set aside to find a solution."""

from __future__ import annotations

from typing import Any

from sudoku_batch.reports.book_report import LOW_CONFIDENCE

NO_ANSWER = ("unsolvable", "multiple_solutions")


def review_reasons(record: dict[str, Any]) -> list[str]:
    """Why a grid's results record needs a look, in words; empty: it does not."""
    reasons = []
    if record["status"] in NO_ANSWER:
        reasons.append(record["status"].replace("_", " "))
    if record["confidence"] is not None and record["confidence"] < LOW_CONFIDENCE:
        reasons.append(f"a digit read with confidence {record['confidence']:.2f}")
    doubts = record.get("doubts") or []
    if doubts:
        reasons.append(
            f"{len(doubts)} reading{'s' if len(doubts) != 1 else ''} doubted by the solver"
        )
    return reasons
