"""``stage_runs`` holds one run per stage and subject, enforced: a unique index on (subject,
stage) for each of input_file_id, page_id and puzzle_id, so that recording a run is one
``INSERT ... ON CONFLICT DO UPDATE`` instead of a DELETE and an INSERT. Each replaces the
subject's single-column index (it serves the same lookups and cascades). Should two runs of a
stage on a subject exist all the same, the newest is kept.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23 11:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SUBJECTS = ("input_file_id", "page_id", "puzzle_id")


def upgrade() -> None:
    op.execute(
        sa.text(
            "DELETE FROM stage_runs WHERE id NOT IN (SELECT max(id) FROM stage_runs"
            " GROUP BY input_file_id, page_id, puzzle_id, stage)"
        )
    )
    for subject in SUBJECTS:
        op.drop_index(f"ix_stage_runs_{subject}", table_name="stage_runs")
        op.create_index(
            f"ix_stage_runs_{subject}_stage", "stage_runs", [subject, "stage"], unique=True
        )


def downgrade() -> None:
    for subject in SUBJECTS:
        op.drop_index(f"ix_stage_runs_{subject}_stage", table_name="stage_runs")
        op.create_index(f"ix_stage_runs_{subject}", "stage_runs", [subject], unique=False)
