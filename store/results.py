"""Reading results back: the results contract, and a batch's progress.

One record per grid found, plus one per page where none was found (or that failed before its
grids were known, or is still pending), plus one per input file that failed before its pages
were listed (``page`` null). ``status`` is one of: solved, unsolvable, multiple_solutions,
timeout, not_sudoku (another grid: no verdict), no_grid, failed, or pending while the batch
is still running. A reading whose givens
clash (verdict ``invalid``) is ``unsolvable`` with a message and ``error_code: "invalid"``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from sudoku_batch.store import results_view
from sudoku_batch.store.book_check import NO_BATCH_FIELDS, batch_fields, batch_findings
from sudoku_batch.store.models import Batch, Cell
from sudoku_batch.store.progress import Subjects, unfinished_count


class BatchNotFound(LookupError):
    pass


def result_records(
    session: Session,
    batch_id: int,
    *,
    status: str | None = None,
    confidence_below: float | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[dict[str, Any]]:
    """The results contract for a batch, in input order, then page, then reading order: the
    rows of the ``results`` view, so results.jsonl, the API and SQL always agree. Optionally
    only the records of one status, or of grids read with less confidence, and one page of
    them."""
    _require_batch(session, batch_id)
    query = (
        select(results_view.results)
        .where(*_record_filters(batch_id, status, confidence_below))
        .order_by(*results_view.RESULTS_ORDER)
        .limit(limit)
        .offset(offset)
    )
    records = [results_view.record_of_row(row) for row in session.execute(query)]
    return with_book_check(session, batch_id, records)


def with_book_check(
    session: Session, batch_id: int, records: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The records with the book check's batch-wide fields (answer keys, copies): judged over
    the whole batch on read, they are the only ones the ``results`` view does not hold."""
    if not any(record.get("puzzle_id") is not None for record in records):
        return [{**record, **NO_BATCH_FIELDS} for record in records]
    findings = batch_findings(session, batch_id)
    return [
        {**record, **batch_fields(record["puzzle_id"], findings)}
        if record.get("puzzle_id") is not None
        else {**record, **NO_BATCH_FIELDS}
        for record in records
    ]


def count_records(
    session: Session,
    batch_id: int,
    *,
    status: str | None = None,
    confidence_below: float | None = None,
) -> int:
    """How many records ``result_records`` gives with these filters and no paging."""
    query = select(func.count()).where(*_record_filters(batch_id, status, confidence_below))
    return session.scalar(query.select_from(results_view.results)) or 0


def _record_filters(
    batch_id: int, status: str | None, confidence_below: float | None
) -> list[ColumnElement[bool]]:
    columns = results_view.results.c
    filters = [columns.batch_id == batch_id]
    if status is not None:
        filters.append(columns.status == status)
    if confidence_below is not None:
        filters.append(columns.confidence < confidence_below)
    return filters


def puzzle_cells(session: Session, puzzle_id: int) -> list[dict[str, Any]]:
    return [
        {
            "row": cell.row,
            "col": cell.col,
            "kind": cell.kind,
            "digit": cell.digit,
            "confidence": cell.confidence,
            "alternatives": cell.alternatives,
            "ink": cell.ink,
            "candidates": cell.candidates,
        }
        for cell in session.scalars(
            select(Cell).where(Cell.puzzle_id == puzzle_id).order_by(Cell.row, Cell.col)
        )
    ]


def puzzle_result(session: Session, puzzle_id: int) -> dict[str, Any] | None:
    """A puzzle's result record (its row of the ``results`` view) with its cells, or None if
    there is no such puzzle."""
    row = session.execute(
        select(results_view.results).where(results_view.results.c.puzzle_id == puzzle_id)
    ).first()
    if row is None:
        return None
    (record,) = with_book_check(session, row.batch_id, [results_view.record_of_row(row)])
    return {**record, "cells": puzzle_cells(session, puzzle_id)}


def state_counts(subjects: Subjects) -> dict[str, Any]:
    """``inputs``, ``pages`` and ``puzzles`` as counts by status, how many of them are
    unfinished, and whether none is."""
    counts = {
        kind: {status: state.count for status, state in sorted(by_status.items())}
        for kind, by_status in subjects.items()
    }
    unfinished = sum(unfinished_count(subjects, kind) for kind in subjects)
    return {**counts, "unfinished": unfinished, "finished": unfinished == 0}


def _require_batch(session: Session, batch_id: int) -> Batch:
    batch = session.get(Batch, batch_id)
    if batch is None:
        raise BatchNotFound(f"there is no batch {batch_id}")
    return batch
