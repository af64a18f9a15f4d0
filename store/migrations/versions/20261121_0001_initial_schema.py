"""Initial schema: batches, input files, pages, puzzles, cells, solutions, stage runs, and the
puzzle_results view.

Revision ID: 0001
Revises:
Create Date: 2026-11-21 20:48:39.387392
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# One row per grid, for ad-hoc SQL: where it is, what was read, what the solver said.
PUZZLE_RESULTS_VIEW = """
CREATE VIEW puzzle_results AS
SELECT p.batch_id, p.id AS puzzle_id, pg.id AS page_id, pg.source, pg.page_number,
       p.index_on_page, p.status, p.size, p.box_rows, p.box_cols, p.givens,
       s.grid AS solution, p.lowest_confidence AS confidence, p.message, p.error_code,
       s.doubts, s.backend, s.seconds AS solve_seconds, s.render_path
FROM puzzles p
JOIN pages pg ON pg.id = p.page_id
LEFT JOIN solutions s ON s.puzzle_id = p.id
"""


def upgrade() -> None:
    op.create_table(
        "batches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_batches")),
    )
    op.create_table(
        "input_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("batch_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("stored_path", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("error_code", sa.String(length=40), nullable=True),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["batch_id"],
            ["batches.id"],
            name=op.f("fk_input_files_batch_id_batches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_input_files")),
        sa.UniqueConstraint(
            "batch_id", "stored_path", name=op.f("uq_input_files_batch_id_stored_path")
        ),
    )
    op.create_index(op.f("ix_input_files_batch_id"), "input_files", ["batch_id"], unique=False)
    op.create_table(
        "pages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("batch_id", sa.Integer(), nullable=False),
        sa.Column("input_file_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("page_number", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(length=20), nullable=False),
        sa.Column("member", sa.Text(), nullable=True),
        sa.Column("frame_index", sa.Integer(), nullable=False),
        sa.Column("image_path", sa.Text(), nullable=True),
        sa.Column("width", sa.Integer(), nullable=True),
        sa.Column("height", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("error_code", sa.String(length=40), nullable=True),
        sa.Column("message", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["batch_id"], ["batches.id"], name=op.f("fk_pages_batch_id_batches"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["input_file_id"],
            ["input_files.id"],
            name=op.f("fk_pages_input_file_id_input_files"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pages")),
        sa.UniqueConstraint(
            "input_file_id",
            "source",
            "page_number",
            name=op.f("uq_pages_input_file_id_source_page_number"),
        ),
    )
    op.create_index(op.f("ix_pages_batch_id"), "pages", ["batch_id"], unique=False)
    op.create_index(op.f("ix_pages_input_file_id"), "pages", ["input_file_id"], unique=False)
    op.create_index(op.f("ix_pages_status"), "pages", ["status"], unique=False)
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("batch_id", sa.Integer(), nullable=False),
        sa.Column("page_id", sa.Integer(), nullable=False),
        sa.Column("index_on_page", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("size", sa.Integer(), nullable=True),
        sa.Column("box_rows", sa.Integer(), nullable=True),
        sa.Column("box_cols", sa.Integer(), nullable=True),
        sa.Column(
            "corners",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column(
            "homography",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column(
            "lattice",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("rotation", sa.Integer(), nullable=False),
        sa.Column("board_image_path", sa.Text(), nullable=True),
        sa.Column(
            "givens",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("lowest_confidence", sa.Float(), nullable=True),
        sa.Column("error_code", sa.String(length=40), nullable=True),
        sa.Column("message", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["batch_id"],
            ["batches.id"],
            name=op.f("fk_puzzles_batch_id_batches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["page_id"], ["pages.id"], name=op.f("fk_puzzles_page_id_pages"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_puzzles")),
        sa.UniqueConstraint(
            "page_id", "index_on_page", name=op.f("uq_puzzles_page_id_index_on_page")
        ),
    )
    op.create_index(op.f("ix_puzzles_batch_id"), "puzzles", ["batch_id"], unique=False)
    op.create_index(op.f("ix_puzzles_page_id"), "puzzles", ["page_id"], unique=False)
    op.create_index(op.f("ix_puzzles_status"), "puzzles", ["status"], unique=False)
    op.create_table(
        "cells",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.Integer(), nullable=False),
        sa.Column("row", sa.Integer(), nullable=False),
        sa.Column("col", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("digit", sa.Integer(), nullable=True),
        sa.Column("confidence", sa.Float(), nullable=True),
        sa.Column(
            "alternatives",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name=op.f("fk_cells_puzzle_id_puzzles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cells")),
        sa.UniqueConstraint("puzzle_id", "row", "col", name=op.f("uq_cells_puzzle_id_row_col")),
    )
    op.create_table(
        "solutions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("puzzle_id", sa.Integer(), nullable=False),
        sa.Column("verdict", sa.String(length=20), nullable=False),
        sa.Column(
            "grid",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column(
            "second_grid",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column(
            "doubts",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("backend", sa.String(length=40), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column("render_path", sa.Text(), nullable=True),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name=op.f("fk_solutions_puzzle_id_puzzles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_solutions")),
        sa.UniqueConstraint("puzzle_id", name=op.f("uq_solutions_puzzle_id")),
    )
    op.create_table(
        "stage_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("batch_id", sa.Integer(), nullable=False),
        sa.Column("input_file_id", sa.Integer(), nullable=True),
        sa.Column("page_id", sa.Integer(), nullable=True),
        sa.Column("puzzle_id", sa.Integer(), nullable=True),
        sa.Column("stage", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("worker", sa.String(length=200), nullable=True),
        sa.Column("error_code", sa.String(length=40), nullable=True),
        sa.Column("message", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["batch_id"],
            ["batches.id"],
            name=op.f("fk_stage_runs_batch_id_batches"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["input_file_id"],
            ["input_files.id"],
            name=op.f("fk_stage_runs_input_file_id_input_files"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["page_id"], ["pages.id"], name=op.f("fk_stage_runs_page_id_pages"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name=op.f("fk_stage_runs_puzzle_id_puzzles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stage_runs")),
    )
    op.create_index(op.f("ix_stage_runs_batch_id"), "stage_runs", ["batch_id"], unique=False)
    op.create_index(
        op.f("ix_stage_runs_input_file_id"), "stage_runs", ["input_file_id"], unique=False
    )
    op.create_index(op.f("ix_stage_runs_page_id"), "stage_runs", ["page_id"], unique=False)
    op.create_index(op.f("ix_stage_runs_puzzle_id"), "stage_runs", ["puzzle_id"], unique=False)

    op.execute(PUZZLE_RESULTS_VIEW)


def downgrade() -> None:
    op.execute("DROP VIEW puzzle_results")
    op.drop_index(op.f("ix_stage_runs_puzzle_id"), table_name="stage_runs")
    op.drop_index(op.f("ix_stage_runs_page_id"), table_name="stage_runs")
    op.drop_index(op.f("ix_stage_runs_input_file_id"), table_name="stage_runs")
    op.drop_index(op.f("ix_stage_runs_batch_id"), table_name="stage_runs")
    op.drop_table("stage_runs")
    op.drop_table("solutions")
    op.drop_table("cells")
    op.drop_index(op.f("ix_puzzles_status"), table_name="puzzles")
    op.drop_index(op.f("ix_puzzles_page_id"), table_name="puzzles")
    op.drop_index(op.f("ix_puzzles_batch_id"), table_name="puzzles")
    op.drop_table("puzzles")
    op.drop_index(op.f("ix_pages_status"), table_name="pages")
    op.drop_index(op.f("ix_pages_input_file_id"), table_name="pages")
    op.drop_index(op.f("ix_pages_batch_id"), table_name="pages")
    op.drop_table("pages")
    op.drop_index(op.f("ix_input_files_batch_id"), table_name="input_files")
    op.drop_table("input_files")
    op.drop_table("batches")
