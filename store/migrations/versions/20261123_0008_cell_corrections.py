"""Cell corrections (issue 15): a person's correction of a cell, kept beside the reading; the
``results`` view gains ``corrected`` per grid and ``cell_readings.corrected`` becomes real.

Creating the table copies none (SQLite does it in place); the two views are dropped and made
again, their templates filled in by 0005's ``results_view_sql``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 03:00:00
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import context, op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# 0007's results view, and whether a person corrected a cell of the grid.
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
       p.level, p.printed_label,
       EXISTS (SELECT 1 FROM cell_corrections cc WHERE cc.puzzle_id = p.id) AS corrected
FROM puzzles p
JOIN pages pg ON pg.id = p.page_id
LEFT JOIN solutions s ON s.puzzle_id = p.id
UNION ALL
SELECT pg.batch_id, pg.input_file_id, pg.id, NULL, pg.source, pg.page_number, NULL,
       CASE WHEN pg.status = 'done' THEN 'no_grid' ELSE pg.status END,
       {null}, {null}, {null}, {null}, {null}, NULL, pg.message, pg.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL, {false}
FROM pages pg
WHERE NOT EXISTS (SELECT 1 FROM puzzles p WHERE p.page_id = pg.id)
UNION ALL
SELECT f.batch_id, f.id, NULL, NULL, f.name, NULL, NULL, 'failed',
       {null}, {null}, {null}, {null}, {null}, NULL, f.message, f.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL, {false}
FROM input_files f
WHERE f.status = 'failed'
"""

CELL_READINGS_VIEW = """
CREATE VIEW cell_readings AS
SELECT p.batch_id, pg.input_file_id, pg.id AS page_id, p.id AS puzzle_id, c.id AS cell_id,
       pg.source, pg.page_number AS page, p.index_on_page AS "index", c.row, c.col, c.kind,
       c.digit, c.confidence, c.alternatives AS runner_ups,
       EXISTS (
           SELECT 1 FROM cell_corrections cc
           WHERE cc.puzzle_id = c.puzzle_id AND cc.row = c.row AND cc.col = c.col
       ) AS corrected
FROM cells c
JOIN puzzles p ON p.id = c.puzzle_id
JOIN pages pg ON pg.id = p.page_id
"""

# From store.models and store.results_view when this migration was written.
TABLE_COMMENT = (
    "A person's correction of one cell of a reading (who, when, old and new value); the cells "
    "row it corrects is kept as read"
)
COLUMN_COMMENTS = {
    "id": "row id",
    "puzzle_id": "its puzzle",
    "row": "0-based row, top first",
    "col": "0-based column, left first",
    "api_key_id": "who corrected it: the API key used (api_keys.id)",
    "corrected_at": "when (UTC)",
    "old_kind": "the cell before: empty, given or blocked (as read or last corrected)",
    "old_digit": "the digit before; null if none",
    "new_kind": "the cell now: empty, given or blocked",
    "new_digit": "the digit now; null if none",
}
RESULTS_CORRECTED = "whether a person corrected a cell of the grid (cell_corrections)"
CELL_CORRECTED = "whether a person corrected the cell (cell_corrections holds what and when)"


def migration(revision_id: str) -> Any:
    """An earlier migration's module, for its SQL and helpers (looked up when run: the revision
    map is still being read while this module loads)."""
    return context.script.get_revision(revision_id).module


def upgrade() -> None:
    op.create_table(
        "cell_corrections",
        sa.Column("id", sa.Integer(), primary_key=True, comment=COLUMN_COMMENTS["id"]),
        sa.Column(
            "puzzle_id",
            sa.Integer(),
            sa.ForeignKey(
                "puzzles.id",
                ondelete="CASCADE",
                name=op.f("fk_cell_corrections_puzzle_id_puzzles"),
            ),
            nullable=False,
            comment=COLUMN_COMMENTS["puzzle_id"],
        ),
        sa.Column("row", sa.Integer(), nullable=False, comment=COLUMN_COMMENTS["row"]),
        sa.Column("col", sa.Integer(), nullable=False, comment=COLUMN_COMMENTS["col"]),
        sa.Column(
            "api_key_id",
            sa.Integer(),
            sa.ForeignKey("api_keys.id", name=op.f("fk_cell_corrections_api_key_id_api_keys")),
            nullable=True,
            comment=COLUMN_COMMENTS["api_key_id"],
        ),
        sa.Column(
            "corrected_at",
            sa.DateTime(timezone=True),
            nullable=False,
            comment=COLUMN_COMMENTS["corrected_at"],
        ),
        sa.Column("old_kind", sa.String(10), nullable=False, comment=COLUMN_COMMENTS["old_kind"]),
        sa.Column("old_digit", sa.Integer(), nullable=True, comment=COLUMN_COMMENTS["old_digit"]),
        sa.Column("new_kind", sa.String(10), nullable=False, comment=COLUMN_COMMENTS["new_kind"]),
        sa.Column("new_digit", sa.Integer(), nullable=True, comment=COLUMN_COMMENTS["new_digit"]),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cell_corrections")),
        comment=TABLE_COMMENT,
    )
    op.create_index(
        op.f("ix_cell_corrections_puzzle_id"), "cell_corrections", ["puzzle_id"], unique=False
    )
    dialect = op.get_bind().dialect.name
    false = migration("0005").JSON_SQL[dialect]["false"]
    recreate_views(
        RESULTS_VIEW.replace("{false}", false),
        CELL_READINGS_VIEW,
        {"corrected": RESULTS_CORRECTED},
        {"corrected": CELL_CORRECTED},
    )


def downgrade() -> None:
    before = migration("0005")
    dialect = op.get_bind().dialect.name
    recreate_views(
        migration("0007").RESULTS_VIEW,
        before.CELL_READINGS_VIEW.format(false=before.JSON_SQL[dialect]["false"]),
        {},
        {"corrected": before.VIEW_COLUMN_COMMENTS["cell_readings"]["corrected"]},
    )
    op.drop_index(op.f("ix_cell_corrections_puzzle_id"), table_name="cell_corrections")
    op.drop_table("cell_corrections")


def recreate_views(
    results_template: str,
    cell_readings_sql: str,
    results_comments: dict[str, str],
    cell_readings_comments: dict[str, str],
) -> None:
    """Replace both views; on PostgreSQL their comments go with them, so they are set again
    (each view's comments as 0005 and 0007 wrote them, and ``overrides``)."""
    before = migration("0005")
    dialect = op.get_bind().dialect.name
    op.execute("DROP VIEW cell_readings")
    op.execute("DROP VIEW results")
    op.execute(before.results_view_sql(results_template, dialect))
    op.execute(cell_readings_sql)
    if dialect != "postgresql":
        return
    comments = {
        "results": before.VIEW_COLUMN_COMMENTS["results"]
        | migration("0007").NEW_COLUMN_COMMENTS
        | results_comments,
        "cell_readings": before.VIEW_COLUMN_COMMENTS["cell_readings"] | cell_readings_comments,
    }
    for view, columns in comments.items():
        op.execute(f"COMMENT ON VIEW {view} IS {before._quoted(before.VIEW_COMMENTS[view])}")
        for column, text in columns.items():
            op.execute(f"COMMENT ON COLUMN {view}.{before._name(column)} IS {before._quoted(text)}")
