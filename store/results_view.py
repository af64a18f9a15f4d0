"""The ``results`` and ``cell_readings`` views (made by migration 0005) as SQLAlchemy tables to
read from, and a ``results`` row as the record results.jsonl and the API give.

The views live in their own MetaData: they are not tables the models create, so Alembic's
comparison of models and database never sees them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, Column, Float, Integer, MetaData, String, Table, Text, func

from store.models import Json

views = MetaData()

results = Table(
    "results",
    views,
    Column("batch_id", Integer),
    Column("input_file_id", Integer),
    Column("page_id", Integer),
    Column("puzzle_id", Integer),
    Column("source", Text),
    Column("page", Integer),
    Column("index", Integer),
    Column("status", String),
    Column("size", Json),
    Column("box", Json),
    Column("givens", Json),
    Column("solution", Json),
    Column("second_solution", Json),
    Column("confidence", Float),
    Column("message", Text),
    Column("error_code", String),
    Column("doubts", Json),
    Column("rotation", Integer),
    Column("corners", Json),
    Column("backend", String),
    Column("render_path", Text),
    Column("seconds", Json),
)

cell_readings = Table(
    "cell_readings",
    views,
    Column("batch_id", Integer),
    Column("input_file_id", Integer),
    Column("page_id", Integer),
    Column("puzzle_id", Integer),
    Column("cell_id", Integer),
    Column("source", Text),
    Column("page", Integer),
    Column("index", Integer),
    Column("row", Integer),
    Column("col", Integer),
    Column("kind", String),
    Column("digit", Integer),
    Column("confidence", Float),
    Column("runner_ups", Json),
    Column("corrected", Boolean),
)

# The input order of the results contract: each input file, its own failure record first
# (page_id null), then its pages in the order they were listed, then grids in reading order.
RESULTS_ORDER = (
    results.c.input_file_id,
    func.coalesce(results.c.page_id, 0),
    func.coalesce(results.c["index"], -1),
)

# The record's keys in results.jsonl order. A grid's record has them all; a page with no grid
# and a failed input lack the puzzle-only keys (as before the view existed).
GRID_KEYS = (
    "batch_id",
    "input_file_id",
    "page_id",
    "source",
    "page",
    "puzzle_id",
    "index",
    "status",
    "size",
    "box",
    "givens",
    "solution",
    "second_solution",
    "confidence",
    "message",
    "error_code",
    "doubts",
    "rotation",
    "corners",
    "backend",
    "render_path",
    "seconds",
)
PUZZLE_ONLY_KEYS = ("rotation", "corners", "backend", "render_path", "seconds")
NO_GRID_KEYS = tuple(key for key in GRID_KEYS if key not in PUZZLE_ONLY_KEYS)
# Stage order, for a stable ``seconds`` object (PostgreSQL's JSONB sorts keys its own way).
STAGE_ORDER = ("ingest", "rectify", "ocr", "solve")


def record_of_row(row: Any) -> dict[str, Any]:
    """A ``results`` row as the results contract's record."""
    values = row._mapping
    if values["puzzle_id"] is None:
        return {key: values[key] for key in NO_GRID_KEYS}
    record = {key: values[key] for key in GRID_KEYS}
    record["seconds"] = _in_stage_order(record["seconds"] or {})
    return record


def _in_stage_order(seconds: dict[str, float]) -> dict[str, float]:
    def rank(stage: str) -> int:
        return STAGE_ORDER.index(stage) if stage in STAGE_ORDER else len(STAGE_ORDER)

    return {stage: seconds[stage] for stage in sorted(seconds, key=rank)}
