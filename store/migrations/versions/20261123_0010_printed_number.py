"""The ``results`` view gains ``printed_number`` (the puzzle number printed near the grid, read
since 0009 but kept out of the contract), and ``puzzles`` gains ``printed_role``: what the
caption or page heading calls the grid ("Solution 7": an answer), which the solve step weighs
with the grid itself when it sets ``role``.

The column is a plain ADD COLUMN (SQLite does it in place); the two views are dropped and made
again by 0008's ``recreate_views``, their templates filled in by 0005's ``results_view_sql``.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23 05:00:00
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import context, op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# 0008's results view, and the printed number beside the printed label.
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
       EXISTS (SELECT 1 FROM cell_corrections cc WHERE cc.puzzle_id = p.id) AS corrected
FROM puzzles p
JOIN pages pg ON pg.id = p.page_id
LEFT JOIN solutions s ON s.puzzle_id = p.id
UNION ALL
SELECT pg.batch_id, pg.input_file_id, pg.id, NULL, pg.source, pg.page_number, NULL,
       CASE WHEN pg.status = 'done' THEN 'no_grid' ELSE pg.status END,
       {null}, {null}, {null}, {null}, {null}, NULL, pg.message, pg.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL, NULL, {false}
FROM pages pg
WHERE NOT EXISTS (SELECT 1 FROM puzzles p WHERE p.page_id = pg.id)
UNION ALL
SELECT f.batch_id, f.id, NULL, NULL, f.name, NULL, NULL, 'failed',
       {null}, {null}, {null}, {null}, {null}, NULL, f.message, f.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL, NULL, {false}
FROM input_files f
WHERE f.status = 'failed'
"""

# From store.models and store.results_view when this migration was written.
PRINTED_ROLE_COMMENT = (
    "what the caption or page heading printed near the grid calls it: puzzle, or answer "
    "('Solution 7'); null: neither read"
)
RESULTS_PRINTED_NUMBER = "the puzzle number printed near the grid, when read"


def migration(revision_id: str) -> Any:
    """An earlier migration's module, for its SQL and helpers (looked up when run: the revision
    map is still being read while this module loads)."""
    return context.script.get_revision(revision_id).module


def upgrade() -> None:
    op.add_column(
        "puzzles",
        sa.Column(
            "printed_role", sa.String(length=10), nullable=True, comment=PRINTED_ROLE_COMMENT
        ),
    )
    _views(RESULTS_VIEW, {"printed_number": RESULTS_PRINTED_NUMBER})


def downgrade() -> None:
    _views(migration("0008").RESULTS_VIEW, {})
    op.drop_column("puzzles", "printed_role")


def _views(results_template: str, results_comments: dict[str, str]) -> None:
    before = migration("0008")
    false = migration("0005").JSON_SQL[op.get_bind().dialect.name]["false"]
    before.recreate_views(
        results_template.replace("{false}", false),
        before.CELL_READINGS_VIEW,
        {"corrected": before.RESULTS_CORRECTED} | results_comments,
        {"corrected": before.CELL_CORRECTED},
    )
