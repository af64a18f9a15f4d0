"""Grid kinds and damaged pages: ``puzzles.other_reason`` (why a grid is no Sudoku: a hints grid,
a table, a fragment), whose status is then ``not_sudoku`` and role ``other``;
``pages.damaged`` (the decoder's warning for a damaged file). The ``results`` view gains
``damaged``; the comments naming statuses and roles say so (PostgreSQL only: SQLite keeps no
comments).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 12:45:00
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import context, op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# 0010's results view, and the page's damage after whether a person corrected the grid.
RESULTS_VIEW = """
CREATE VIEW results AS
SELECT p.batch_id, pg.input_file_id, pg.id AS page_id, p.id AS puzzle_id,
       pg.source, pg.page_number AS page, p.index_on_page AS "index", p.status,
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
       pg.damaged
FROM puzzles p
JOIN pages pg ON pg.id = p.page_id
LEFT JOIN solutions s ON s.puzzle_id = p.id
UNION ALL
SELECT pg.batch_id, pg.input_file_id, pg.id, NULL, pg.source, pg.page_number, NULL,
       CASE WHEN pg.status = 'done' THEN 'no_grid' ELSE pg.status END,
       {null}, {null}, {null}, {null}, {null}, NULL, pg.message, pg.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL, NULL, {false}, pg.damaged
FROM pages pg
WHERE NOT EXISTS (SELECT 1 FROM puzzles p WHERE p.page_id = pg.id)
UNION ALL
SELECT f.batch_id, f.id, NULL, NULL, f.name, NULL, NULL, 'failed',
       {null}, {null}, {null}, {null}, {null}, NULL, f.message, f.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL, NULL, {false}, NULL
FROM input_files f
WHERE f.status = 'failed'
"""

# From store.models and store.results_view when this migration was written.
OTHER_REASON_COMMENT = (
    "why the grid is no Sudoku (a hints grid, a table, a fragment), as read; null: it is one"
)
DAMAGED_COMMENT = (
    "the decoder's warning when the file is damaged (a truncated image, a broken PDF stream); "
    "null: decoded cleanly"
)
RESULTS_COMMENTS = {
    "status": "solved, unsolvable, multiple_solutions, timeout, not_sudoku (another grid: no "
    "verdict), no_grid, failed; pending or read while the batch runs",
    "role": "puzzle, answer (a grid printed with every cell filled), or other (no Sudoku); null "
    "without a grid",
    "damaged": "the decoder's warning when the page's file is damaged; null: decoded cleanly",
}
# (table, column): (type, comment before, comment after).
COMMENTS = {
    ("puzzles", "status"): (
        sa.String(length=20),
        "pending, read, then solved, unsolvable, multiple_solutions, timeout or failed",
        "pending, read, then solved, unsolvable, multiple_solutions, timeout, failed, or "
        "not_sudoku (another grid: no verdict)",
    ),
    ("solutions", "verdict"): (
        sa.String(length=20),
        "solved, unsolvable, multiple_solutions, timeout or invalid (givens clash)",
        "solved, unsolvable, multiple_solutions, timeout, invalid (givens clash) or not_sudoku "
        "(another grid: not solved)",
    ),
    ("puzzles", "role"): (
        sa.String(length=10),
        "puzzle, or answer (a grid printed with every cell filled)",
        "puzzle, answer (a grid printed with every cell filled), or other (no Sudoku)",
    ),
}


def migration(revision_id: str) -> Any:
    """An earlier migration's module, for its SQL and helpers (looked up when run)."""
    return context.script.get_revision(revision_id).module


def upgrade() -> None:
    op.add_column(
        "puzzles", sa.Column("other_reason", sa.Text(), nullable=True, comment=OTHER_REASON_COMMENT)
    )
    op.add_column("pages", sa.Column("damaged", sa.Text(), nullable=True, comment=DAMAGED_COMMENT))
    _comment(after=True)
    _views(RESULTS_VIEW, RESULTS_COMMENTS)


def downgrade() -> None:
    _views(migration("0010").RESULTS_VIEW, {})
    _comment(after=False)
    op.drop_column("pages", "damaged")
    op.drop_column("puzzles", "other_reason")


def _comment(after: bool) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for (table, column), (type_, before, now) in COMMENTS.items():
        op.alter_column(
            table,
            column,
            existing_type=type_,
            existing_nullable=column == "role",
            comment=now if after else before,
            existing_comment=before if after else now,
        )


def _views(results_template: str, results_comments: dict[str, str]) -> None:
    before = migration("0008")
    printed = {"printed_number": migration("0010").RESULTS_PRINTED_NUMBER}
    false = migration("0005").JSON_SQL[op.get_bind().dialect.name]["false"]
    before.recreate_views(
        results_template.replace("{false}", false),
        before.CELL_READINGS_VIEW,
        {"corrected": before.RESULTS_CORRECTED} | printed | results_comments,
        {"corrected": before.CELL_CORRECTED},
    )
