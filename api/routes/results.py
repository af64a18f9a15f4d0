"""A batch's results: records as JSON pages, every record as CSV, the book check as HTML."""

from __future__ import annotations

import io
from typing import Annotated
from uuid import UUID

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, Response

from sudoku_batch.api.auth import ApiKeyId
from sudoku_batch.api.deps import Db, Limit, Offset, owned_batch, public_puzzle_ids, public_record
from sudoku_batch.api.responses import NOT_FOUND, with_content
from sudoku_batch.api.schemas import ResultPage, ResultRecord
from sudoku_batch.reports.book_report import build_report
from sudoku_batch.reports.html import render_report_html
from sudoku_batch.store.exports import PUBLIC_CSV_COLUMNS, write_csv
from sudoku_batch.store.results import count_records, result_records

STATUS_PATTERN = r"^[a-z_]{1,40}$"

router = APIRouter()


@router.get("/batches/{batch_id}/results", responses=NOT_FOUND)
def get_results(
    batch_id: UUID,
    key_id: ApiKeyId,
    db: Db,
    status: Annotated[
        str | None,
        Query(pattern=STATUS_PATTERN, description="only records of this status"),
    ] = None,
    confidence_below: Annotated[
        float | None, Query(ge=0, le=1, description="only grids read with less confidence")
    ] = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> ResultPage:
    """One record per grid found, one per page without a grid, in input order."""
    batch = owned_batch(db, batch_id, key_id)
    filters = {"status": status, "confidence_below": confidence_below}
    records = result_records(db, batch.id, **filters, limit=limit, offset=offset)
    public = public_puzzle_ids(db, batch)
    items = [ResultRecord.model_validate(public_record(r, batch, public)) for r in records]
    total = count_records(db, batch.id, **filters)
    return ResultPage(items=items, total=total, limit=limit, offset=offset)


@router.get(
    "/batches/{batch_id}/results.csv",
    response_class=Response,
    responses=with_content(("text/csv",)),
)
def get_results_csv(batch_id: UUID, key_id: ApiKeyId, db: Db) -> Response:
    """Every results record as one CSV row, with public ids only (columns and grid alphabet:
    store.exports)."""
    batch = owned_batch(db, batch_id, key_id)
    public = public_puzzle_ids(db, batch)
    out = io.StringIO()
    records = (public_record(r, batch, public) for r in result_records(db, batch.id))
    write_csv(records, out, PUBLIC_CSV_COLUMNS)
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="results-{batch_id}.csv"'},
    )


@router.get(
    "/batches/{batch_id}/report.html",
    response_class=HTMLResponse,
    responses=with_content(("text/html",)),
)
def get_report(batch_id: UUID, key_id: ApiKeyId, db: Db) -> HTMLResponse:
    """The book check as one HTML page: summary (verdicts, levels, ratings, answer-key
    mismatches, duplicates, low-confidence readings) and every grid with what to fix."""
    batch = owned_batch(db, batch_id, key_id)
    return HTMLResponse(render_report_html(build_report(db, batch.id)))
