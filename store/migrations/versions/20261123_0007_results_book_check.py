"""The ``results`` view gains the book check's columns per grid (role, rating, techniques,
level, printed_label), and a solved grid left unrated says why in ``message``, so SQL holds
what results.jsonl holds; only answer keys and copies, judged over the whole batch on read,
stay out of the view.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 02:00:00
"""

from collections.abc import Sequence
from typing import Any

from alembic import context, op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


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
       p.level, p.printed_label
FROM puzzles p
JOIN pages pg ON pg.id = p.page_id
LEFT JOIN solutions s ON s.puzzle_id = p.id
UNION ALL
SELECT pg.batch_id, pg.input_file_id, pg.id, NULL, pg.source, pg.page_number, NULL,
       CASE WHEN pg.status = 'done' THEN 'no_grid' ELSE pg.status END,
       {null}, {null}, {null}, {null}, {null}, NULL, pg.message, pg.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL
FROM pages pg
WHERE NOT EXISTS (SELECT 1 FROM puzzles p WHERE p.page_id = pg.id)
UNION ALL
SELECT f.batch_id, f.id, NULL, NULL, f.name, NULL, NULL, 'failed',
       {null}, {null}, {null}, {null}, {null}, NULL, f.message, f.error_code, {empty_list},
       NULL, {null}, NULL, NULL, {null},
       NULL, NULL, {empty_list}, NULL, NULL
FROM input_files f
WHERE f.status = 'failed'
"""

# From store.results_view when this migration was written.
NEW_COLUMN_COMMENTS = {
    "message": "why it is not solved, or why a solved grid has no SE rating, in words",
    "role": "puzzle, or answer (a grid printed with every cell filled); null without a grid",
    "rating": "difficulty on the Sudoku Explainer scale; null: message says why",
    "techniques": "the solving techniques the rating needed, hardest last",
    "level": "the rating's level: easy, medium, hard, fiendish, ...",
    "printed_label": "the difficulty printed near the grid, when read",
}


def view_0005() -> Any:
    """Migration 0005, which made the view this one replaces: its way of filling in a view's
    template per dialect, its SQL (for the downgrade) and its comments are used from there,
    not copied. (Looked up
    when run: the revision map is still being read while this module loads.)"""
    return context.script.get_revision("0005").module


def upgrade() -> None:
    recreate(RESULTS_VIEW, view_0005().VIEW_COLUMN_COMMENTS["results"] | NEW_COLUMN_COMMENTS)


def downgrade() -> None:
    previous = view_0005()
    recreate(previous.RESULTS_VIEW, previous.VIEW_COLUMN_COMMENTS["results"])


def recreate(template: str, column_comments: dict[str, str]) -> None:
    """Replace the ``results`` view; on PostgreSQL its comments go with it, so they are set
    again."""
    previous = view_0005()
    dialect = op.get_bind().dialect.name
    op.execute("DROP VIEW results")
    op.execute(previous.results_view_sql(template, dialect))
    if dialect == "postgresql":
        op.execute(
            f"COMMENT ON VIEW results IS {previous._quoted(previous.VIEW_COMMENTS['results'])}"
        )
        for column, text in column_comments.items():
            op.execute(
                f"COMMENT ON COLUMN results.{previous._name(column)} IS {previous._quoted(text)}"
            )
