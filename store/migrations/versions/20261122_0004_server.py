"""The server made safe: API keys owning batches, public UUIDs for batches and puzzles, the
hand-over times the recovery sweep reads, and worker heartbeats.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 23:30:00
"""

import uuid
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HANDOVER_TABLES = ("input_files", "pages", "puzzles")
PUBLIC_TABLES = ("batches", "puzzles")


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_api_keys_key_hash")),
        sa.UniqueConstraint("name", name=op.f("uq_api_keys_name")),
    )
    op.create_table(
        "worker_heartbeats",
        sa.Column("incarnation", sa.String(length=200), nullable=False),
        sa.Column("hostname", sa.String(length=200), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("incarnation", name=op.f("pk_worker_heartbeats")),
    )
    # Plain ADD COLUMNs and CREATE INDEXes throughout: SQLite does them in place, where a
    # constraint would make Alembic copy the table, which the puzzle_results view forbids.
    for table in HANDOVER_TABLES:
        op.add_column(table, sa.Column("queued_at", sa.DateTime(timezone=True), nullable=True))
        op.add_column(table, sa.Column("started_at", sa.DateTime(timezone=True), nullable=True))
        op.add_column(table, sa.Column("claimed_by", sa.String(length=200), nullable=True))
    op.add_column("stage_runs", sa.Column("waited_seconds", sa.Float(), nullable=True))
    op.add_column(
        "input_files",
        sa.Column("is_text", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    owner = "fk_batches_api_key_id_api_keys"
    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a foreign key only inline, with the column.
        op.execute(
            f"ALTER TABLE batches ADD COLUMN api_key_id INTEGER"
            f" CONSTRAINT {owner} REFERENCES api_keys (id)"
        )
    else:
        op.add_column("batches", sa.Column("api_key_id", sa.Integer(), nullable=True))
        op.create_foreign_key(op.f(owner), "batches", "api_keys", ["api_key_id"], ["id"])
    op.create_index(op.f("ix_batches_api_key_id"), "batches", ["api_key_id"])
    for table in PUBLIC_TABLES:
        _add_public_id(table)


def _add_public_id(table: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.add_column(table, sa.Column("public_id", sa.Uuid(), nullable=True))
        op.execute(f"UPDATE {table} SET public_id = gen_random_uuid()")
        op.alter_column(table, "public_id", nullable=False)
    else:
        # SQLite adds a NOT NULL column only with a default; each row then gets its own id.
        op.add_column(
            table, sa.Column("public_id", sa.Uuid(), nullable=False, server_default="0" * 32)
        )
        for (row_id,) in bind.execute(sa.text(f"SELECT id FROM {table}")).all():
            bind.execute(
                sa.text(f"UPDATE {table} SET public_id = :public WHERE id = :id"),
                {"public": uuid.uuid4().hex, "id": row_id},
            )
    op.create_index(op.f(f"ix_{table}_public_id"), table, ["public_id"], unique=True)


def downgrade() -> None:
    for table in PUBLIC_TABLES:
        op.drop_index(op.f(f"ix_{table}_public_id"), table_name=table)
        with op.batch_alter_table(table) as batch:
            batch.drop_column("public_id")
    op.drop_index(op.f("ix_batches_api_key_id"), table_name="batches")
    with op.batch_alter_table("batches") as batch:
        batch.drop_constraint(op.f("fk_batches_api_key_id_api_keys"), type_="foreignkey")
        batch.drop_column("api_key_id")
    with op.batch_alter_table("input_files") as batch:
        batch.drop_column("is_text")
    with op.batch_alter_table("stage_runs") as batch:
        batch.drop_column("waited_seconds")
    for table in HANDOVER_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("claimed_by")
            batch.drop_column("started_at")
            batch.drop_column("queued_at")
    op.drop_table("worker_heartbeats")
    op.drop_table("api_keys")
