"""``puzzles.symbols``: how the grid prints its digits above 9, ``numbers`` (10, 11, ...) or
``letters`` (A, B, ...), as the recogniser read them; the answer key prints them the same way.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 12:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# From store.models when this migration was written.
SYMBOLS_COMMENT = (
    "how the grid prints digits above 9, as read: numbers (10, 11, ...) or letters (A, B, ...); "
    "null: none read"
)


def upgrade() -> None:
    op.add_column(
        "puzzles",
        sa.Column("symbols", sa.String(length=10), nullable=True, comment=SYMBOLS_COMMENT),
    )


def downgrade() -> None:
    op.drop_column("puzzles", "symbols")
