"""Bulk runs: an input file keeps the hash of its content, so a resumed run can tell a file
that changed from one it has done.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 23:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # add_column needs no table copy on SQLite, so the puzzle_results view is left alone.
    op.add_column("input_files", sa.Column("content_hash", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("input_files") as batch:
        batch.drop_column("content_hash")
