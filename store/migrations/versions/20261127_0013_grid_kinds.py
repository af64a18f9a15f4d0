"""Grid kinds and damaged pages: ``puzzles.other_reason`` (why a grid is no Sudoku: a hints grid,
a table, a fragment), whose status is then ``not_sudoku`` and role ``other``;
``pages.damaged`` (the decoder's warning for a damaged file). The ``results`` view gains
``damaged``; the comments naming statuses and roles say so (PostgreSQL only: SQLite keeps no
comments).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 12:45:00
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import context, op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What 0010's results view gains: the page's damage, last, in each of its three parts.
DAMAGED_COLUMNS = (
    (
        "cc.puzzle_id = p.id) AS corrected\n",
        "cc.puzzle_id = p.id) AS corrected,\n       pg.damaged\n",
    ),
    ("NULL, NULL, NULL, {false}\nFROM pages", "NULL, NULL, NULL, {false}, pg.damaged\nFROM pages"),
    (
        "NULL, NULL, NULL, {false}\nFROM input_files",
        "NULL, NULL, NULL, {false}, NULL\nFROM input_files",
    ),
)


def results_view() -> str:
    view = migration("0010").RESULTS_VIEW
    for before, after in DAMAGED_COLUMNS:
        if view.count(before) != 1:
            raise RuntimeError(f"0010's results view has no single {before!r}")
        view = view.replace(before, after)
    return view


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
    _views(results_view(), RESULTS_COMMENTS)


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
