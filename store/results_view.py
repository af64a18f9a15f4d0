"""The views over the tables, written here once: ``results`` (one row per results.jsonl
record), ``cell_readings`` (one row per cell read) and ``puzzle_results`` (one row per grid).

``results`` and ``cell_readings`` are also SQLAlchemy tables to read from; each column's
``comment`` is what PostgreSQL shows in ``\\d+ results``. The views live in their own MetaData:
the models do not create them, so Alembic's comparison of models and database never sees
them. Migration 0001 makes them with ``create_statements``; a later migration that changes
them, or a column they read, drops them (``DROP_STATEMENTS``) before its change and makes them
again from here after it. Since 0001 reads this SQL too, such a change is folded into 0001
while 0.1.0 is unreleased.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, Column, Float, Integer, MetaData, String, Table, Text, func

from sudoku_batch.jobs.table import stages
from sudoku_batch.store.models import Json

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
    Column("source", Text, comment="the input as given, or archive.zip/inner/path"),
    Column(
        "page",
        Integer,
        comment="1-based page (a text file: its line number); null for a failed input file",
    ),
    Column(
        "puzzle_id",
        Integer,
        comment="the grid (puzzles.id); null for a page with no grid and a failed input file",
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
    # The book check per grid; answer keys and copies are judged over the whole batch on read
    # (store.results.with_book_check).
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
    Column(
        "variant",
        String,
        comment="classic, jigsaw, diagonal, or a combination such as jigsaw+diagonal",
    ),
    Column(
        "regions",
        Json,
        comment="N x N region numbers 0..N-1 in reading order of each region's first cell "
        "(the boxes of a classic grid)",
    ),
    Column(
        "certified",
        Boolean,
        comment="whether the outcome needs no review (pipeline.certify); null until solved",
    ),
    Column(
        "review_reasons",
        Json,
        comment="why it is not certified: [{code, message}, ...]; empty when certified",
    ),
    Column(
        "suggestion",
        Json,
        comment="when the printed puzzle as read has no solution but a repaired reading has "
        "one: {givens, solution, doubts}; else null",
    ),
    Column(
        "ink",
        Json,
        comment="each cell's ink as read, rows of: empty, given (printed), pencil, handwritten; "
        "null a blocked cell",
    ),
    Column(
        "entries_check",
        Json,
        comment="handwritten entries and pencil marks checked against the unique solution: "
        "[{row, col, ink, written, right, ok, finding}, ...]; null: no unique solution",
    ),
    comment="One row per record of results.jsonl: a grid found, a page with no grid, or an "
    "input file that failed before its pages were listed (page null). The API's results and "
    "results.jsonl are read from this view.",
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
    Column(
        "ink",
        String,
        comment="empty, given (printed), pencil or handwritten (a solver's marks: kind empty); "
        "null: blocked or not judged",
    ),
    Column("candidates", Json, comment="pencil marks: the candidate digits read, rising"),
    comment="One row per cell read: where it is (batch, source, page, index, row, col), what "
    "was read (kind, digit, confidence) and the runner-up readings.",
)

# How each dialect writes the JSON the views need. SQLite's JSON functions print a REAL with
# 15 digits; printf('%!.17g') keeps every bit, so seconds read back equal the stored floats.
_JSON_SQL = {
    "postgresql": {
        "pair": "jsonb_build_array({0}, {1})",
        "object_agg": "jsonb_object_agg({0}, {1})",
        "empty_list": "CAST('[]' AS JSONB)",
        "empty_object": "CAST('{}' AS JSONB)",
        "null": "CAST(NULL AS JSONB)",
        "json_null": "CAST('null' AS JSONB)",
        "false": "false",
    },
    "sqlite": {
        "pair": "json_array({0}, {1})",
        "object_agg": "json_group_object({0}, json(printf('%!.17g', {1})))",
        "empty_list": "'[]'",
        "empty_object": "'{}'",
        "null": "NULL",
        "json_null": "'null'",
        "false": "0",
    },
}

# In input order when read through RESULTS_ORDER. A JSON null stored in a column (a grid not
# read, no solution) is a SQL NULL here, so IS NULL works.
_RESULTS_SQL = """
CREATE VIEW results AS
SELECT p.batch_id, pg.input_file_id, pg.id AS page_id,
       pg.source, pg.page_number AS page, p.id AS puzzle_id, p.index_on_page AS "index", p.status,
       CASE WHEN p.size <> 0 THEN {pair_size} END AS size,
       CASE WHEN p.box_rows <> 0 THEN {pair_box} END AS box,
       NULLIF(p.givens, {json_null}) AS givens,
       NULLIF(s.grid, {json_null}) AS solution,
       NULLIF(s.second_grid, {json_null}) AS second_solution,
       p.lowest_confidence AS confidence, COALESCE(p.message, p.rating_reason) AS message,
       p.error_code,
       COALESCE(s.doubts, {empty_list}) AS doubts,
       p.rotation, NULLIF(p.corners, {json_null}) AS corners, s.backend, s.render_path,
       COALESCE((
           SELECT {seconds_agg} FROM (
               SELECT 'rectify' AS stage, r.seconds FROM stage_runs r
               WHERE r.page_id = p.page_id
               UNION ALL
               SELECT r.stage, r.seconds FROM stage_runs r WHERE r.puzzle_id = p.id
           ) AS runs
       ), {empty_object}) AS seconds,
       p.role, p.rating, COALESCE(NULLIF(p.techniques, {json_null}), {empty_list}) AS techniques,
       p.level, p.printed_label, p.printed_number,
       EXISTS (SELECT 1 FROM cell_corrections cc WHERE cc.puzzle_id = p.id) AS corrected,
       pg.damaged, p.variant, NULLIF(p.regions, {json_null}) AS regions, p.certified,
       NULLIF(p.review_reasons, {json_null}) AS review_reasons,
       NULLIF(s.suggestion, {json_null}) AS suggestion, NULLIF(p.ink, {json_null}) AS ink,
       NULLIF(s.entries_check, {json_null}) AS entries_check
FROM puzzles p
JOIN pages pg ON pg.id = p.page_id
LEFT JOIN solutions s ON s.puzzle_id = p.id
UNION ALL
SELECT pg.batch_id, pg.input_file_id, pg.id, pg.source, pg.page_number, NULL, NULL,
       CASE WHEN pg.status = 'done' THEN 'no_grid' ELSE pg.status END,
       {null}, {null}, {null}, {null}, {null}, NULL, pg.message, pg.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL, NULL, {false}, pg.damaged, NULL, {null}, NULL,
       {null}, {null}, {null}, {null}
FROM pages pg
WHERE NOT EXISTS (SELECT 1 FROM puzzles p WHERE p.page_id = pg.id)
UNION ALL
SELECT f.batch_id, f.id, NULL, f.name, NULL, NULL, NULL, 'failed',
       {null}, {null}, {null}, {null}, {null}, NULL, f.message, f.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL, NULL, {false}, NULL, NULL, {null}, NULL, {null},
       {null}, {null}, {null}
FROM input_files f
WHERE f.status = 'failed'
"""

_CELL_READINGS_SQL = """
CREATE VIEW cell_readings AS
SELECT p.batch_id, pg.input_file_id, pg.id AS page_id, p.id AS puzzle_id, c.id AS cell_id,
       pg.source, pg.page_number AS page, p.index_on_page AS "index", c.row, c.col, c.kind,
       c.digit, c.confidence, c.alternatives AS runner_ups,
       EXISTS (
           SELECT 1 FROM cell_corrections cc
           WHERE cc.puzzle_id = c.puzzle_id AND cc.row = c.row AND cc.col = c.col
       ) AS corrected, c.ink, c.candidates
FROM cells c
JOIN puzzles p ON p.id = c.puzzle_id
JOIN pages pg ON pg.id = p.page_id
"""

# One row per grid for ad-hoc SQL, the columns named as in the tables (results came later).
_PUZZLE_RESULTS_SQL = """
CREATE VIEW puzzle_results AS
SELECT p.batch_id, p.id AS puzzle_id, pg.id AS page_id, pg.source, pg.page_number,
       p.index_on_page, p.status, p.size, p.box_rows, p.box_cols, p.givens,
       s.grid AS solution, p.lowest_confidence AS confidence, p.message, p.error_code,
       s.doubts, s.backend, s.seconds AS solve_seconds, s.render_path
FROM puzzles p
JOIN pages pg ON pg.id = p.page_id
LEFT JOIN solutions s ON s.puzzle_id = p.id
"""

DROP_STATEMENTS = (
    "DROP VIEW puzzle_results",
    "DROP VIEW cell_readings",
    "DROP VIEW results",
)


def create_statements(dialect: str) -> list[str]:
    """The statements that make the three views on ``dialect`` (postgresql or sqlite), with
    their comments on PostgreSQL (SQLite keeps none)."""
    json_sql = _JSON_SQL[dialect]
    results_sql = _RESULTS_SQL.format(
        pair_size=json_sql["pair"].format("p.size", "p.size"),
        pair_box=json_sql["pair"].format("p.box_rows", "p.box_cols"),
        seconds_agg=json_sql["object_agg"].format("runs.stage", "runs.seconds"),
        **{
            name: json_sql[name]
            for name in ("json_null", "empty_list", "null", "empty_object", "false")
        },
    )
    statements = [results_sql, _CELL_READINGS_SQL, _PUZZLE_RESULTS_SQL]
    if dialect == "postgresql":
        for view in (results, cell_readings):
            statements.append(f"COMMENT ON VIEW {view.name} IS {_quoted(view.comment)}")
            statements += [
                f"COMMENT ON COLUMN {view.name}.{_name(column.name)} IS {_quoted(column.comment)}"
                for column in view.columns
            ]
    return statements


def _quoted(text: str | None) -> str:
    return "'" + (text or "").replace("'", "''") + "'"


def _name(column: str) -> str:
    return f'"{column}"' if column in ("index", "row") else column


# The input order of the results contract: each input file, its own failure record first
# (page_id null), then its pages in the order they were listed, then grids in reading order.
RESULTS_ORDER = (
    results.c.input_file_id,
    func.coalesce(results.c.page_id, 0),
    func.coalesce(results.c["index"], -1),
)

# The record's keys in results.jsonl order: the view's columns. A grid's record has them all;
# a page with no grid and a failed input lack the puzzle-only keys (as before the view existed).
GRID_KEYS = tuple(results.columns.keys())
# The record's row ids that have no public id (its batch_id and puzzle_id have one): the API
# shows neither.
ROW_IDS = ("input_file_id", "page_id")
PUZZLE_ONLY_KEYS = (
    "rotation",
    "corners",
    "backend",
    "render_path",
    "seconds",
    "certified",
    "review_reasons",
    "suggestion",
    "ink",
    "entries_check",
)
NO_GRID_KEYS = tuple(key for key in GRID_KEYS if key not in PUZZLE_ONLY_KEYS)


def record_of_row(row: Any) -> dict[str, Any]:
    """A ``results`` row as the results contract's record."""
    values = row._mapping
    if values["puzzle_id"] is None:
        return {key: values[key] for key in NO_GRID_KEYS}
    record = {key: values[key] for key in GRID_KEYS}
    record["seconds"] = _in_stage_order(record["seconds"] or {})
    return record


def _in_stage_order(seconds: dict[str, float]) -> dict[str, float]:
    """In the job's order (``jobs.table``), for a stable ``seconds`` object: PostgreSQL's
    JSONB sorts keys its own way."""
    order = stages()

    def rank(stage: str) -> int:
        return order.index(stage) if stage in order else len(order)

    return {stage: seconds[stage] for stage in sorted(seconds, key=rank)}
