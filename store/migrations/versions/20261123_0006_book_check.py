"""The book check per puzzle: role, rating, techniques, level, canonical form, printed label.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 00:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# The columns' comments, copied from store.models as they were written (a migration does not
# follow later edits of the models).
COMMENTS = {
    "role": "puzzle, or answer (a grid printed with every cell filled)",
    "rating": "difficulty on the Sudoku Explainer scale (null: rating_reason)",
    "techniques": "the solving techniques the rating needed, hardest last",
    "level": "the rating's level: easy, medium, hard, fiendish, ...",
    "rating_reason": "why there is no rating, or why it is not an SE rating",
    "canonical": "equal for a puzzle and every disguise of it (relabelled, swapped, turned)",
    "canonical_complete": "false: a weaker form (16x16 and up) that may miss disguised copies",
    "printed_label": "the difficulty printed near the grid, when read (not read yet)",
    "printed_number": "the puzzle number printed near the grid, when read (not read yet)",
}


def columns() -> list[sa.Column]:
    """Fresh columns each call (a Column belongs to one table once added)."""
    made = [
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
    for column in made:
        column.comment = COMMENTS[column.name]
    return made


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
