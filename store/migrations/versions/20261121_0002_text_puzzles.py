"""Puzzles given as text: an input file keeps the box shape given for it, and a puzzle may have
no corners (it was never on a page).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 21:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("input_files") as batch:
        batch.add_column(sa.Column("box_rows", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("box_cols", sa.Integer(), nullable=True))
    _corners_nullable(True)


def downgrade() -> None:
    # Text puzzles have no corners to keep: they go with the column's constraint.
    op.execute("DELETE FROM puzzles WHERE corners IS NULL")
    _corners_nullable(False)
    with op.batch_alter_table("input_files") as batch:
        batch.drop_column("box_cols")
        batch.drop_column("box_rows")


def _corners_nullable(nullable: bool) -> None:
    # SQLite alters a column by copying the table, which the view over it would block: the
    # view is set aside and made again from its own stored definition.
    bind = op.get_bind()
    view = None
    if bind.dialect.name == "sqlite":
        view = bind.scalar(
            sa.text("SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'puzzle_results'")
        )
        op.execute("DROP VIEW puzzle_results")
    with op.batch_alter_table("puzzles") as batch:
        batch.alter_column("corners", existing_type=JSON, nullable=nullable)
    if view is not None:
        op.execute(view)
