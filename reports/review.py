"""What makes a grid need a person's look on the review pages, in the summary and the report:
its certificate (``pipeline.certify``) says it is not certified. Another kind of grid (status
``not_sudoku``) has no verdict to review."""

from __future__ import annotations

from collections import Counter
from typing import Any

from sudoku_batch.pipeline.reading import InkKind


def needs_review(record: dict[str, Any]) -> bool:
    """A Sudoku grid's results record whose outcome is not certified."""
    return record.get("certified") is False and record["status"] != "not_sudoku"


def review_reasons(record: dict[str, Any]) -> list[str]:
    """Why a grid's results record needs a look, in words; empty: it does not (certified, or
    not solved yet)."""
    if not needs_review(record):
        return []
    return [reason["message"] for reason in record.get("review_reasons") or []]


def certificate_counts(records: list[dict[str, Any]]) -> tuple[int, int]:
    """Of the grids' records: how many are certified, and how many need review."""
    grids = [record for record in records if record.get("puzzle_id") is not None]
    certified = sum(record.get("certified") is True for record in grids)
    return certified, sum(needs_review(record) for record in grids)


def ink_counts(ink: list[list[str | None]] | None) -> list[tuple[str, int]]:
    """How many cells of a record's ``ink`` grid hold each kind of ink, printed givens first
    (kinds with none left out)."""
    counts = Counter(kind for row in ink or [] for kind in row if kind is not None)
    return [(str(kind), counts[str(kind)]) for kind in InkKind if counts[str(kind)]]
