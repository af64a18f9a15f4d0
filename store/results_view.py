"""The ``results`` and ``cell_readings`` views (made by migration 0005) as SQLAlchemy tables to
read from, and a ``results`` row as the record results.jsonl and the API give.

Each column's ``comment`` is what PostgreSQL shows in ``\\d+ results`` (migration 0005 wrote
a copy; a test compares them). The views live in their own MetaData: they are not tables the
models create, so Alembic's comparison of models and database never sees them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, Column, Float, Integer, MetaData, String, Table, Text, func

from store.models import Json

views = MetaData()

results = Table(
    "results",
    views,
    Column("batch_id", Integer, comment="the batch (batches.id)"),
    Column("input_file_id", Integer, comment="the input file (input_files.id)"),
    Column(
        "page_id",
        Integer,
        comment="the page (pages.id); null for an input file that failed before listing",
    ),
    Column(
        "puzzle_id",
        Integer,
        comment="the grid (puzzles.id); null for a page with no grid and a failed input file",
    ),
    Column("source", Text, comment="the input as given, or archive.zip/inner/path"),
    Column(
        "page",
        Integer,
        comment="1-based page (a text file: its line number); null for a failed input file",
    ),
    Column(
        "index", Integer, comment="0-based grid on the page, reading order; null without a grid"
    ),
    Column(
        "status",
        String,
        comment="solved, unsolvable, multiple_solutions, timeout, not_sudoku (another grid: no "
        "verdict), no_grid, failed; pending or read while the batch runs",
    ),
    Column("size", Json, comment="[rows, cols] of the grid"),
    Column("box", Json, comment="[box_rows, box_cols]"),
    Column("givens", Json, comment="the grid as read, rows of digits: 0 empty, null blocked"),
    Column("solution", Json, comment="the solution, same shape; null unless found"),
    Column(
        "second_solution",
        Json,
        comment="with multiple_solutions, a second solution that differs from solution",
    ),
    Column("confidence", Float, comment="lowest confidence among the digits read"),
    Column(
        "message",
        Text,
        comment="why it is not solved, or why a solved grid has no SE rating, in words",
    ),
    Column("error_code", String, comment="why it is not solved, as a code (docs/errors.md)"),
    Column(
        "doubts",
        Json,
        comment="readings the solver set aside as contradicting the others, least sure first",
    ),
    Column(
        "rotation", Integer, comment="counter-clockwise quarter turns that made the board upright"
    ),
    Column(
        "corners", Json, comment="the grid's corners in page pixels, TL, TR, BR, BL; null for text"
    ),
    Column("backend", String, comment="the SAT solver that answered"),
    Column(
        "render_path",
        Text,
        comment="the solution drawn on the page, relative to the output or data directory",
    ),
    Column("seconds", Json, comment="seconds per stage: rectify (the page's), ocr, solve"),
    # The book check per grid (migration 0007); answer keys and copies are judged over the
    # whole batch on read (store.results.with_book_check).
    Column(
        "role",
        String,
        comment="puzzle, answer (a grid printed with every cell filled), or other (no Sudoku); "
        "null without a grid",
    ),
    Column(
        "rating", Float, comment="difficulty on the Sudoku Explainer scale; null: message says why"
    ),
    Column("techniques", Json, comment="the solving techniques the rating needed, hardest last"),
    Column("level", String, comment="the rating's level: easy, medium, hard, fiendish, ..."),
    Column("printed_label", String, comment="the difficulty printed near the grid, when read"),
    Column("printed_number", Integer, comment="the puzzle number printed near the grid, when read"),
    Column(
        "corrected",
        Boolean,
        comment="whether a person corrected a cell of the grid (cell_corrections)",
    ),
    Column(
        "damaged",
        Text,
        comment="the decoder's warning when the page's file is damaged; null: decoded cleanly",
    ),
)

cell_readings = Table(
    "cell_readings",
    views,
    Column("batch_id", Integer, comment="the batch (batches.id)"),
    Column("input_file_id", Integer, comment="the input file (input_files.id)"),
    Column("page_id", Integer, comment="the page (pages.id)"),
    Column("puzzle_id", Integer, comment="the grid (puzzles.id)"),
    Column("cell_id", Integer, comment="the cell (cells.id)"),
    Column("source", Text, comment="the input as given, or archive.zip/inner/path"),
    Column("page", Integer, comment="1-based page"),
    Column("index", Integer, comment="0-based grid on the page, reading order"),
    Column("row", Integer, comment="0-based row, top first"),
    Column("col", Integer, comment="0-based column, left first"),
    Column("kind", String, comment="empty, given or blocked"),
    Column("digit", Integer, comment="the digit read; null if none"),
    Column(
        "confidence",
        Float,
        comment="a given: probability of the digit read; an empty cell: how sure it is empty",
    ),
    Column(
        "runner_ups", Json, comment="runner-up readings, [[digit, probability], ...], best first"
    ),
    Column(
        "corrected",
        Boolean,
        comment="whether a person corrected the cell (cell_corrections holds what and when)",
    ),
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
    "role",
    "rating",
    "techniques",
    "level",
    "printed_label",
    "printed_number",
    "corrected",
    "damaged",
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
