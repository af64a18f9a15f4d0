"""Comments that follow what changed: printed captions are read now (``puzzles.printed_label``
and ``printed_number`` stop saying "not read yet"), and whole pages are stored only on request
(``pages.image_path``). (PostgreSQL only: SQLite keeps no comments.)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 02:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (table, column): (type, comment before, comment after), as store.models has them.
COMMENTS = {
    ("pages", "image_path"): (
        sa.Text(),
        "the page as an image once loaded, relative to the data directory",
        "the page as an image, relative to the data directory; null unless page "
        "images are kept (--keep-intermediates, SUDOKU_BATCH_KEEP_PAGE_IMAGES)",
    ),
    ("puzzles", "printed_label"): (
        sa.String(length=40),
        "the difficulty printed near the grid, when read (not read yet)",
        "the difficulty printed in the caption nearest the grid ('Easy'); null: none read",
    ),
    ("puzzles", "printed_number"): (
        sa.Integer(),
        "the puzzle number printed near the grid, when read (not read yet)",
        "the puzzle number printed in the caption nearest the grid; null: none read",
    ),
}


def upgrade() -> None:
    _comment(after=True)


def downgrade() -> None:
    _comment(after=False)


def _comment(after: bool) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for (table, column), (type_, before, now) in COMMENTS.items():
        op.alter_column(
            table,
            column,
            existing_type=type_,
            existing_nullable=True,
            comment=now if after else before,
            existing_comment=before if after else now,
        )
