"""The book check per puzzle: role, rating, techniques, level, canonical form, printed label.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 00:30:00

Written on a branch without 0005 (issue 16's results view): down_revision is "0004" here and
must become "0005" when both are merged.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def columns() -> list[sa.Column]:
    """Fresh columns each call (a Column belongs to one table once added)."""
    return [
        sa.Column("role", sa.String(length=10), nullable=True),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("techniques", sa.JSON().with_variant(postgresql.JSONB(), "postgresql")),
        sa.Column("level", sa.String(length=20), nullable=True),
        sa.Column("rating_reason", sa.Text(), nullable=True),
        sa.Column("canonical", sa.Text(), nullable=True),
        sa.Column("canonical_complete", sa.Boolean(), nullable=True),
        sa.Column("printed_label", sa.String(length=40), nullable=True),
        sa.Column("printed_number", sa.Integer(), nullable=True),
    ]


INDEXED = ("role", "rating", "level", "canonical")


def upgrade() -> None:
    # Plain ADD COLUMNs and CREATE INDEXes: SQLite does them in place (a table copy is
    # forbidden by the puzzle_results view).
    for column in columns():
        op.add_column("puzzles", column)
    for name in INDEXED:
        op.create_index(op.f(f"ix_puzzles_{name}"), "puzzles", [name])


def downgrade() -> None:
    for name in reversed(INDEXED):
        op.drop_index(op.f(f"ix_puzzles_{name}"), table_name="puzzles")
    for column in reversed(columns()):
        op.drop_column("puzzles", column.name)
