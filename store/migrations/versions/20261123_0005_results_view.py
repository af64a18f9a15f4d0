"""The results contract as SQL: the ``results`` view (one row per results.jsonl record) and the
``cell_readings`` view (one row per cell read), and comments on every table and column.

The views are written once, as templates; the few places where PostgreSQL and SQLite spell JSON
differently are filled in per dialect (``JSON_SQL``). The comments are a snapshot of the
models' ``comment=`` (``alembic check`` in the tests says when the two drift); SQLite keeps no
comments, so they are PostgreSQL only.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 00:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# How each dialect writes the JSON the records need. SQLite's JSON functions print a REAL with
# 15 digits; printf('%!.17g') keeps every bit, so seconds read back equal the stored floats.
JSON_SQL = {
    "postgresql": {
        "pair": "jsonb_build_array({0}, {1})",
        "object_agg": "jsonb_object_agg({0}, {1})",
        "empty_list": "CAST('[]' AS JSONB)",
        "empty_object": "CAST('{{}}' AS JSONB)",
        "null": "CAST(NULL AS JSONB)",
        "json_null": "CAST('null' AS JSONB)",
        "false": "false",
    },
    "sqlite": {
        "pair": "json_array({0}, {1})",
        "object_agg": "json_group_object({0}, json(printf('%!.17g', {1})))",
        "empty_list": "'[]'",
        "empty_object": "'{{}}'",
        "null": "NULL",
        "json_null": "'null'",
        "false": "0",
    },
}

# One row per record of results.jsonl; ``store.results`` reads it back in input order
# (input_file_id, then page_id with the file's own record first, then index). A JSON null
# stored in a column (a grid not read, no solution) is a SQL NULL here, so IS NULL works.
RESULTS_VIEW = """
CREATE VIEW results AS
SELECT p.batch_id, pg.input_file_id, pg.id AS page_id, p.id AS puzzle_id,
       pg.source, pg.page_number AS page, p.index_on_page AS "index", p.status,
       CASE WHEN p.size <> 0 THEN {pair_size} END AS size,
       CASE WHEN p.box_rows <> 0 THEN {pair_box} END AS box,
       NULLIF(p.givens, {json_null}) AS givens,
       NULLIF(s.grid, {json_null}) AS solution,
       NULLIF(s.second_grid, {json_null}) AS second_solution,
       p.lowest_confidence AS confidence, p.message, p.error_code,
       COALESCE(s.doubts, {empty_list}) AS doubts,
       p.rotation, NULLIF(p.corners, {json_null}) AS corners, s.backend, s.render_path,
       COALESCE((
           SELECT {seconds_agg} FROM (
               SELECT 'rectify' AS stage, r.seconds FROM stage_runs r
               WHERE r.page_id = p.page_id
               UNION ALL
               SELECT r.stage, r.seconds FROM stage_runs r WHERE r.puzzle_id = p.id
           ) AS runs
       ), {empty_object}) AS seconds
FROM puzzles p
JOIN pages pg ON pg.id = p.page_id
LEFT JOIN solutions s ON s.puzzle_id = p.id
UNION ALL
SELECT pg.batch_id, pg.input_file_id, pg.id, NULL, pg.source, pg.page_number, NULL,
       CASE WHEN pg.status = 'done' THEN 'no_grid' ELSE pg.status END,
       {null}, {null}, {null}, {null}, {null}, NULL, pg.message, pg.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null}
FROM pages pg
WHERE NOT EXISTS (SELECT 1 FROM puzzles p WHERE p.page_id = pg.id)
UNION ALL
SELECT f.batch_id, f.id, NULL, NULL, f.name, NULL, NULL, 'failed',
       {null}, {null}, {null}, {null}, {null}, NULL, f.message, f.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null}
FROM input_files f
WHERE f.status = 'failed'
"""

# One row per cell read, with where it is. ``corrected`` is always false until cell
# corrections (issue 15) exist; it is here so queries written today keep working then.
CELL_READINGS_VIEW = """
CREATE VIEW cell_readings AS
SELECT p.batch_id, pg.input_file_id, pg.id AS page_id, p.id AS puzzle_id, c.id AS cell_id,
       pg.source, pg.page_number AS page, p.index_on_page AS "index", c.row, c.col, c.kind,
       c.digit, c.confidence, c.alternatives AS runner_ups, {false} AS corrected
FROM cells c
JOIN puzzles p ON p.id = c.puzzle_id
JOIN pages pg ON pg.id = p.page_id
"""

VIEW_COMMENTS = {
    "results": "One row per record of results.jsonl: a grid found, a page with no grid, or an "
    "input file that failed before its pages were listed (page null). The API's results and "
    "results.jsonl are read from this view.",
    "cell_readings": "One row per cell read: where it is (batch, source, page, index, row, "
    "col), what was read (kind, digit, confidence) and the runner-up readings.",
}


def view_sql(dialect: str) -> tuple[str, str]:
    """The CREATE VIEW statements of ``results`` and ``cell_readings`` for ``dialect``."""
    return (
        results_view_sql(RESULTS_VIEW, dialect),
        CELL_READINGS_VIEW.format(false=JSON_SQL[dialect]["false"]),
    )


def results_view_sql(template: str, dialect: str) -> str:
    """A ``results`` view's template filled in for ``dialect`` (later migrations that
    replace the view use it too)."""
    json_sql = JSON_SQL[dialect]
    return template.format(
        pair_size=json_sql["pair"].format("p.size", "p.size"),
        pair_box=json_sql["pair"].format("p.box_rows", "p.box_cols"),
        seconds_agg=json_sql["object_agg"].format("runs.stage", "runs.seconds"),
        **{
            name: json_sql[name].format()
            for name in ("json_null", "empty_list", "null", "empty_object")
        },
    )


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    for statement in view_sql(dialect):
        op.execute(statement)
    if dialect == "postgresql":
        for statement in comment_statements():
            op.execute(statement)


def downgrade() -> None:
    op.execute("DROP VIEW cell_readings")
    op.execute("DROP VIEW results")
    if op.get_bind().dialect.name == "postgresql":
        for table in TABLE_COMMENTS:
            op.execute(f"COMMENT ON TABLE {table} IS NULL")
        for table, columns in COLUMN_COMMENTS.items():
            for column in columns:
                op.execute(f"COMMENT ON COLUMN {table}.{column} IS NULL")


def comment_statements() -> list[str]:
    statements = [
        f"COMMENT ON VIEW {view} IS {_quoted(text)}" for view, text in VIEW_COMMENTS.items()
    ]
    statements += [
        f"COMMENT ON TABLE {table} IS {_quoted(text)}" for table, text in TABLE_COMMENTS.items()
    ]
    statements += [
        f"COMMENT ON COLUMN {table}.{_name(column)} IS {_quoted(text)}"
        for table, columns in (COLUMN_COMMENTS | VIEW_COLUMN_COMMENTS).items()
        for column, text in columns.items()
    ]
    return statements


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _name(column: str) -> str:
    return f'"{column}"' if column in ("index", "row") else column


# Generated from store.models (every table's and column's comment=) when this migration was
# written; the migration keeps its own copy so later edits to the models do not change it.
TABLE_COMMENTS: dict[str, str] = {
    "api_keys": "API keys the server accepts; only each key's SHA-256 is kept",
    "batches": "One submission: a run of the embedded runner, or a POST to the API",
    "cells": "One cell of a puzzle as read: what it holds and how sure the reader is",
    "input_files": "One file a user handed in: an image, a PDF, a zip archive, or a text file of "
    "puzzles (one per line)",
    "pages": "One page of an input file: an image, a PDF page, a TIFF frame, a zip member, or "
    "one puzzle line of a text file",
    "puzzles": "One grid found on a page, from rectification to verdict",
    "solutions": "The solver's answer for a puzzle (at most one per puzzle)",
    "stage_runs": "The last run of one stage (ingest, rectify, ocr, solve) on one input file, "
    "page or puzzle: timings, worker, errors",
    "worker_heartbeats": "One row per start of a worker and when it last said it was alive; work "
    "claimed by a worker that stopped beating is handed out again",
}
# From store.results_view, likewise.
VIEW_COLUMN_COMMENTS: dict[str, dict[str, str]] = {
    "results": {
        "batch_id": "the batch (batches.id)",
        "input_file_id": "the input file (input_files.id)",
        "page_id": "the page (pages.id); null for an input file that failed before listing",
        "puzzle_id": "the grid (puzzles.id); null for a page with no grid and a failed input file",
        "source": "the input as given, or archive.zip/inner/path",
        "page": "1-based page (a text file: its line number); null for a failed input file",
        "index": "0-based grid on the page, reading order; null without a grid",
        "status": "solved, unsolvable, multiple_solutions, timeout, no_grid, failed; "
        "pending or read while the batch runs",
        "size": "[rows, cols] of the grid",
        "box": "[box_rows, box_cols]",
        "givens": "the grid as read, rows of digits: 0 empty, null blocked",
        "solution": "the solution, same shape; null unless found",
        "second_solution": "with multiple_solutions, a second solution that differs from solution",
        "confidence": "lowest confidence among the digits read",
        "message": "why it is not solved, in words",
        "error_code": "why it is not solved, as a code (docs/errors.md)",
        "doubts": "readings the solver set aside as contradicting the others, least sure first",
        "rotation": "counter-clockwise quarter turns that made the board upright",
        "corners": "the grid's corners in page pixels, TL, TR, BR, BL; null for text",
        "backend": "the SAT solver that answered",
        "render_path": "the solution drawn on the page, relative to the output or data directory",
        "seconds": "seconds per stage: rectify (the page's), ocr, solve",
    },
    "cell_readings": {
        "batch_id": "the batch (batches.id)",
        "input_file_id": "the input file (input_files.id)",
        "page_id": "the page (pages.id)",
        "puzzle_id": "the grid (puzzles.id)",
        "cell_id": "the cell (cells.id)",
        "source": "the input as given, or archive.zip/inner/path",
        "page": "1-based page",
        "index": "0-based grid on the page, reading order",
        "row": "0-based row, top first",
        "col": "0-based column, left first",
        "kind": "empty, given or blocked",
        "digit": "the digit read; null if none",
        "confidence": "a given: probability of the digit read; an empty cell: how sure it is empty",
        "runner_ups": "runner-up readings, [[digit, probability], ...], best first",
        "corrected": "whether a person corrected the reading; always false until "
        "cell corrections exist",
    },
}
COLUMN_COMMENTS: dict[str, dict[str, str]] = {
    "api_keys": {
        "id": "row id",
        "name": "who or what the key is for, as given at creation",
        "key_hash": "SHA-256 of the key, hex; the key itself is not kept",
        "created_at": "when made (UTC)",
        "revoked_at": "when revoked (UTC); null: the key is live",
    },
    "batches": {
        "id": "row id (results' batch_id)",
        "public_id": "the batch's id in the API's URLs and answers",
        "api_key_id": "the API key that submitted it, the only one that can read it; "
        "null: embedded",
        "label": "a name for people: the inputs of an embedded run, or as given",
        "created_at": "when made (UTC)",
    },
    "cells": {
        "id": "row id",
        "puzzle_id": "its puzzle",
        "row": "0-based row, top first",
        "col": "0-based column, left first",
        "kind": "empty, given or blocked",
        "digit": "the digit read; null if none",
        "confidence": "a given: probability of the digit read; an empty cell: how sure it is empty",
        "alternatives": "runner-up readings, [[digit, probability], ...], best first",
    },
    "input_files": {
        "id": "row id",
        "batch_id": "its batch",
        "name": "the file's name as the user gave it; the results' source",
        "stored_path": "where the file is kept, relative to the data directory",
        "is_text": "true: a text file of puzzles, one per line; false: images, PDF or zip",
        "box_rows": "box rows given for a text file; null: the usual shape for each size",
        "box_cols": "box columns given for a text file; null: the usual shape",
        "content_hash": "SHA-256 of the file when listed; a resumed run redoes a changed file",
        "status": "pending (not yet listed into pages), expanded (pages listed) or failed",
        "error_code": "why it failed, as a code (docs/errors.md); null unless failed",
        "message": "why it failed, in words, naming the input and what to do",
        "created_at": "when received (UTC)",
        "queued_at": "when last sent to its queue (UTC); null: not sent (yet), or embedded",
        "started_at": "when a worker last took it from its queue (UTC)",
        "claimed_by": "the worker start (worker_heartbeats.incarnation) that took it",
    },
    "pages": {
        "id": "row id",
        "batch_id": "its batch",
        "input_file_id": "its input file",
        "source": "the input as given, or archive.zip/inner/path; the results' source",
        "page_number": "1-based page of the source (a text file: its line number)",
        "format": "how to load it again: image, pdf, zip member, text_line, ...",
        "member": "the zip member it comes from",
        "frame_index": "0-based frame of a multi-frame image (TIFF)",
        "image_path": "the page as an image once loaded, relative to the data directory",
        "width": "page image width, pixels",
        "height": "page image height, pixels",
        "status": "pending, done (its grids are puzzles), no_grid, failed or interrupted",
        "error_code": "why it failed, as a code (docs/errors.md)",
        "message": "why it failed, in words",
        "queued_at": "when last sent to its queue (UTC); null: not sent (yet), or embedded",
        "started_at": "when a worker last took it from its queue (UTC)",
        "claimed_by": "the worker start (worker_heartbeats.incarnation) that took it",
    },
    "puzzles": {
        "id": "row id (results' puzzle_id)",
        "public_id": "the puzzle's id in the API's URLs and answers",
        "batch_id": "its batch",
        "page_id": "the page it is on",
        "index_on_page": "0-based, in reading order; the results' index",
        "status": "pending, read, then solved, unsolvable, multiple_solutions, timeout or failed",
        "size": "N of an N x N grid",
        "box_rows": "rows of one box",
        "box_cols": "columns of one box",
        "corners": "[[x, y] x4]: top-left, top-right, bottom-right, bottom-left in page "
        "pixels; null for a puzzle given as text",
        "homography": "3x3 page-to-board homography of the board as last stored (upright "
        "once read)",
        "lattice": 'the grid lines found on the board: {"row_lines": [...], "col_lines": [...]}',
        "rotation": "counter-clockwise quarter turns that made the board upright",
        "board_image_path": "the board as an upright image, relative to the data directory",
        "givens": "the grid as read, rows of digits: 0 empty, null a blocked cell",
        "lowest_confidence": "lowest confidence among the cells read (the results' confidence)",
        "error_code": "why it is not solved, as a code (docs/errors.md; invalid: givens clash)",
        "message": "why it is not solved, in words",
        "queued_at": "when last sent to its queue (UTC); null: not sent (yet), or embedded",
        "started_at": "when a worker last took it from its queue (UTC)",
        "claimed_by": "the worker start (worker_heartbeats.incarnation) that took it",
    },
    "solutions": {
        "id": "row id",
        "puzzle_id": "its puzzle",
        "verdict": "solved, unsolvable, multiple_solutions, timeout or invalid (givens clash)",
        "grid": "the solution, rows of digits (null blocked); with multiple_solutions, one",
        "second_grid": "with multiple_solutions, a second solution that differs from grid",
        "doubts": "readings the solver set aside as contradicting the others, least sure first",
        "backend": "the SAT solver that answered (minisat, kissat, cadical)",
        "seconds": "solver time, seconds",
        "render_path": "the solution drawn on the page, relative to the data directory",
        "message": "the solver's remark, in words",
        "created_at": "when solved (UTC)",
    },
    "stage_runs": {
        "id": "row id",
        "batch_id": "its batch",
        "input_file_id": "the input file it ran on (exactly one of input_file_id, "
        "page_id, puzzle_id)",
        "page_id": "the page it ran on",
        "puzzle_id": "the puzzle it ran on",
        "stage": "ingest, rectify, ocr or solve",
        "status": "ok or failed",
        "started_at": "when it started (UTC)",
        "finished_at": "when it ended (UTC)",
        "seconds": "how long it ran, seconds",
        "waited_seconds": "from being sent to its queue to being taken by a worker; "
        "null when embedded",
        "worker": "the host and process that ran it",
        "error_code": "why it failed, as a code (docs/errors.md)",
        "message": "why it failed, in words",
    },
    "worker_heartbeats": {
        "incarnation": "this start of the worker: host, pid and a token",
        "hostname": "the machine it runs on",
        "started_at": "when it started (UTC)",
        "last_seen": "its last heartbeat (UTC)",
    },
}
