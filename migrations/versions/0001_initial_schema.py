"""The schema of 0.1.0: every table of store.models, and the views of store.results_view.

The tables are written out here, as Alembic generated them from the models (a migration does
not follow later edits of the models; ``alembic check`` in the tests says when the two
differ). The views' SQL is store.results_view's, the only copy. A database made by the
migrations before they were squashed into this one must be made again (0.1.0 is unreleased).

Revision ID: 0001
Revises:
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

from sudoku_batch.store.results_view import DROP_STATEMENTS, create_statements

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Integer(), nullable=False, comment="row id"),
        sa.Column(
            "name",
            sa.String(length=100),
            nullable=False,
            comment="who or what the key is for, as given at creation",
        ),
        sa.Column(
            "key_hash",
            sa.String(length=64),
            nullable=False,
            comment="SHA-256 of the key, hex; the key itself is not kept",
        ),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, comment="when made (UTC)"
        ),
        sa.Column(
            "revoked_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="when revoked (UTC); null: the key is live",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_api_keys_key_hash")),
        sa.UniqueConstraint("name", name=op.f("uq_api_keys_name")),
        comment="API keys the server accepts; only each key's SHA-256 is kept",
    )
    op.create_table(
        "worker_heartbeats",
        sa.Column(
            "incarnation",
            sa.String(length=200),
            nullable=False,
            comment="this start of the worker: host, pid and a token",
        ),
        sa.Column(
            "hostname", sa.String(length=200), nullable=False, comment="the machine it runs on"
        ),
        sa.Column(
            "started_at",
            sa.DateTime(timezone=True),
            nullable=False,
            comment="when it started (UTC)",
        ),
        sa.Column(
            "last_seen",
            sa.DateTime(timezone=True),
            nullable=False,
            comment="its last heartbeat (UTC)",
        ),
        sa.PrimaryKeyConstraint("incarnation", name=op.f("pk_worker_heartbeats")),
        comment=(
            "One row per start of a worker and when it last said it was alive; work claimed by a "
            "worker that stopped beating is handed out again"
        ),
    )
    op.create_table(
        "batches",
        sa.Column("id", sa.Integer(), nullable=False, comment="row id (results' batch_id)"),
        sa.Column(
            "public_id",
            sa.Uuid(),
            nullable=False,
            comment="the batch's id in the API's URLs and answers",
        ),
        sa.Column(
            "api_key_id",
            sa.Integer(),
            nullable=True,
            comment="the API key that submitted it, the only one that can read it; null: embedded",
        ),
        sa.Column(
            "label",
            sa.String(length=200),
            nullable=True,
            comment="a name for people: the inputs of an embedded run, or as given",
        ),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, comment="when made (UTC)"
        ),
        sa.ForeignKeyConstraint(
            ["api_key_id"], ["api_keys.id"], name=op.f("fk_batches_api_key_id_api_keys")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_batches")),
        comment="One submission: a run of the embedded runner, or a POST to the API",
    )
    op.create_index(op.f("ix_batches_api_key_id"), "batches", ["api_key_id"], unique=False)
    op.create_index(op.f("ix_batches_public_id"), "batches", ["public_id"], unique=True)

    op.create_table(
        "input_files",
        sa.Column("id", sa.Integer(), nullable=False, comment="row id"),
        sa.Column("batch_id", sa.Integer(), nullable=False, comment="its batch"),
        sa.Column(
            "name",
            sa.Text(),
            nullable=False,
            comment="the file's name as the user gave it; the results' source",
        ),
        sa.Column(
            "stored_path",
            sa.Text(),
            nullable=False,
            comment="where the file is kept, relative to the data directory",
        ),
        sa.Column(
            "is_text",
            sa.Boolean(),
            server_default=sa.false(),
            nullable=False,
            comment="true: a text file of puzzles, one per line; false: images, PDF or zip",
        ),
        sa.Column(
            "box_rows",
            sa.Integer(),
            nullable=True,
            comment="box rows given for a text file; null: the usual shape for each size",
        ),
        sa.Column(
            "box_cols",
            sa.Integer(),
            nullable=True,
            comment="box columns given for a text file; null: the usual shape",
        ),
        sa.Column(
            "content_hash",
            sa.String(length=64),
            nullable=True,
            comment="SHA-256 of the file when listed; a resumed run redoes a changed file",
        ),
        sa.Column(
            "status",
            sa.String(length=20),
            nullable=False,
            comment="pending (not yet listed into pages), expanded (pages listed) or failed",
        ),
        sa.Column(
            "error_code",
            sa.String(length=40),
            nullable=True,
            comment="why it failed, as a code (docs/errors.md); null unless failed",
        ),
        sa.Column(
            "message",
            sa.Text(),
            nullable=True,
            comment="why it failed, in words, naming the input and what to do",
        ),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, comment="when received (UTC)"
        ),
        sa.Column(
            "queued_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="when last sent to its queue (UTC); null: not sent (yet), or embedded",
        ),
        sa.Column(
            "started_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="when a worker last took it from its queue (UTC)",
        ),
        sa.Column(
            "claimed_by",
            sa.String(length=200),
            nullable=True,
            comment="the worker start (worker_heartbeats.incarnation) that took it",
        ),
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
        comment=(
            "One file a user handed in: an image, a PDF, a zip archive, or a text file of puzzles "
            "(one per line)"
        ),
    )
    op.create_index(op.f("ix_input_files_batch_id"), "input_files", ["batch_id"], unique=False)

    op.create_table(
        "pages",
        sa.Column("id", sa.Integer(), nullable=False, comment="row id"),
        sa.Column("batch_id", sa.Integer(), nullable=False, comment="its batch"),
        sa.Column("input_file_id", sa.Integer(), nullable=False, comment="its input file"),
        sa.Column(
            "source",
            sa.Text(),
            nullable=False,
            comment="the input as given, or archive.zip/inner/path; the results' source",
        ),
        sa.Column(
            "page_number",
            sa.Integer(),
            nullable=False,
            comment="1-based page of the source (a text file: its line number)",
        ),
        sa.Column(
            "format",
            sa.String(length=20),
            nullable=False,
            comment="how to load it again: image, pdf, zip member, text_line, ...",
        ),
        sa.Column("member", sa.Text(), nullable=True, comment="the zip member it comes from"),
        sa.Column(
            "frame_index",
            sa.Integer(),
            nullable=False,
            comment="0-based frame of a multi-frame image (TIFF)",
        ),
        sa.Column(
            "image_path",
            sa.Text(),
            nullable=True,
            comment=(
                "the page as an image, relative to the data directory; null unless page images are "
                "kept (--keep-intermediates, SUDOKU_BATCH_KEEP_PAGE_IMAGES)"
            ),
        ),
        sa.Column("width", sa.Integer(), nullable=True, comment="page image width, pixels"),
        sa.Column("height", sa.Integer(), nullable=True, comment="page image height, pixels"),
        sa.Column(
            "status",
            sa.String(length=20),
            nullable=False,
            comment="pending, done (its grids are puzzles), no_grid, failed or interrupted",
        ),
        sa.Column(
            "error_code",
            sa.String(length=40),
            nullable=True,
            comment="why it failed, as a code (docs/errors.md)",
        ),
        sa.Column("message", sa.Text(), nullable=True, comment="why it failed, in words"),
        sa.Column(
            "damaged",
            sa.Text(),
            nullable=True,
            comment=(
                "the decoder's warning when the file is damaged (a truncated image, a broken PDF"
                " stream); null: decoded cleanly"
            ),
        ),
        sa.Column(
            "queued_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="when last sent to its queue (UTC); null: not sent (yet), or embedded",
        ),
        sa.Column(
            "started_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="when a worker last took it from its queue (UTC)",
        ),
        sa.Column(
            "claimed_by",
            sa.String(length=200),
            nullable=True,
            comment="the worker start (worker_heartbeats.incarnation) that took it",
        ),
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
        comment=(
            "One page of an input file: an image, a PDF page, a TIFF frame, a zip member, or one "
            "puzzle line of a text file"
        ),
    )
    op.create_index(op.f("ix_pages_batch_id"), "pages", ["batch_id"], unique=False)
    op.create_index(op.f("ix_pages_input_file_id"), "pages", ["input_file_id"], unique=False)
    op.create_index(op.f("ix_pages_status"), "pages", ["status"], unique=False)

    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer(), nullable=False, comment="row id (results' puzzle_id)"),
        sa.Column(
            "public_id",
            sa.Uuid(),
            nullable=False,
            comment="the puzzle's id in the API's URLs and answers",
        ),
        sa.Column("batch_id", sa.Integer(), nullable=False, comment="its batch"),
        sa.Column("page_id", sa.Integer(), nullable=False, comment="the page it is on"),
        sa.Column(
            "index_on_page",
            sa.Integer(),
            nullable=False,
            comment="0-based, in reading order; the results' index",
        ),
        sa.Column(
            "status",
            sa.String(length=20),
            nullable=False,
            comment=(
                "pending, read, then solved, unsolvable, multiple_solutions, timeout, failed, or"
                " not_sudoku (another grid: no verdict)"
            ),
        ),
        sa.Column("size", sa.Integer(), nullable=True, comment="N of an N x N grid"),
        sa.Column("box_rows", sa.Integer(), nullable=True, comment="rows of one box"),
        sa.Column("box_cols", sa.Integer(), nullable=True, comment="columns of one box"),
        sa.Column(
            "corners",
            JSON,
            nullable=True,
            comment=(
                "[[x, y] x4]: top-left, top-right, bottom-right, bottom-left in page pixels; null "
                "for a puzzle given as text"
            ),
        ),
        sa.Column(
            "homography",
            JSON,
            nullable=True,
            comment="3x3 page-to-board homography of the board as last stored (upright once read)",
        ),
        sa.Column(
            "lattice",
            JSON,
            nullable=True,
            comment='the grid lines found on the board: {"row_lines": [...], "col_lines": [...]}',
        ),
        sa.Column(
            "rotation",
            sa.Integer(),
            nullable=False,
            comment="counter-clockwise quarter turns that made the board upright",
        ),
        sa.Column(
            "board_image_path",
            sa.Text(),
            nullable=True,
            comment="the board as an upright image, relative to the data directory",
        ),
        sa.Column(
            "givens",
            JSON,
            nullable=True,
            comment="the grid as read, rows of digits: 0 empty, null a blocked cell",
        ),
        sa.Column(
            "lowest_confidence",
            sa.Float(),
            nullable=True,
            comment="lowest confidence among the cells read (the results' confidence)",
        ),
        sa.Column(
            "error_code",
            sa.String(length=40),
            nullable=True,
            comment="why it is not solved, as a code (docs/errors.md; invalid: givens clash)",
        ),
        sa.Column("message", sa.Text(), nullable=True, comment="why it is not solved, in words"),
        sa.Column(
            "role",
            sa.String(length=10),
            nullable=True,
            comment="puzzle, answer (a grid printed with every cell filled), or other (no Sudoku)",
        ),
        sa.Column(
            "other_reason",
            sa.Text(),
            nullable=True,
            comment=(
                "why the grid is no Sudoku (a hints grid, a table, a fragment), as read; null: it"
                " is one"
            ),
        ),
        sa.Column(
            "rating",
            sa.Float(),
            nullable=True,
            comment="difficulty on the Sudoku Explainer scale (null: rating_reason)",
        ),
        sa.Column(
            "techniques",
            JSON,
            nullable=True,
            comment="the solving techniques the rating needed, hardest last",
        ),
        sa.Column(
            "level",
            sa.String(length=20),
            nullable=True,
            comment="the rating's level: easy, medium, hard, fiendish, ...",
        ),
        sa.Column(
            "rating_reason",
            sa.Text(),
            nullable=True,
            comment="why there is no rating, or why it is not an SE rating",
        ),
        sa.Column(
            "canonical",
            sa.Text(),
            nullable=True,
            comment="equal for a puzzle and every disguise of it (relabelled, swapped, turned)",
        ),
        sa.Column(
            "canonical_complete",
            sa.Boolean(),
            nullable=True,
            comment="false: a weaker form (16x16 and up) that may miss disguised copies",
        ),
        sa.Column(
            "printed_label",
            sa.String(length=40),
            nullable=True,
            comment=(
                "the difficulty printed in the caption nearest the grid ('Easy'); null: none read"
            ),
        ),
        sa.Column(
            "printed_number",
            sa.Integer(),
            nullable=True,
            comment="the puzzle number printed in the caption nearest the grid; null: none read",
        ),
        sa.Column(
            "printed_role",
            sa.String(length=10),
            nullable=True,
            comment=(
                "what the caption or page heading printed near the grid calls it: puzzle, or answer"
                " ('Solution 7'); null: neither read"
            ),
        ),
        sa.Column(
            "symbols",
            sa.String(length=10),
            nullable=True,
            comment=(
                "how the grid prints digits above 9, as read: numbers (10, 11, ...) or letters"
                " (A, B, ...); null: none read"
            ),
        ),
        sa.Column(
            "variant",
            sa.String(length=20),
            nullable=True,
            comment=(
                "classic, jigsaw, diagonal, or a combination such as jigsaw+diagonal; null: no"
                " grid shape yet"
            ),
        ),
        sa.Column(
            "regions",
            JSON,
            nullable=True,
            comment=(
                "N x N region numbers 0..N-1, in reading order of each region's first cell (the"
                " boxes of a classic grid); null: no grid shape yet"
            ),
        ),
        sa.Column(
            "certified",
            sa.Boolean(),
            nullable=True,
            comment=(
                "whether the outcome needs no review: every reading confident, none doubted, a"
                " whole page, a sure lattice, one solution checked; null: not solved yet"
            ),
        ),
        sa.Column(
            "review_reasons",
            JSON,
            nullable=True,
            comment="why it is not certified: [{code, message}, ...]; null: not solved yet",
        ),
        sa.Column(
            "ink",
            JSON,
            nullable=True,
            comment=(
                "each cell's ink as read, rows of: empty, given (printed), pencil, handwritten;"
                " null a blocked cell"
            ),
        ),
        sa.Column(
            "regions_certainty",
            sa.Float(),
            nullable=True,
            comment=(
                "how sure the regions read from the image are, 0..1 (under 0.5: in doubt,"
                " pipeline.vision.regions); null: not read from an image"
            ),
        ),
        sa.Column(
            "queued_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="when last sent to its queue (UTC); null: not sent (yet), or embedded",
        ),
        sa.Column(
            "started_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="when a worker last took it from its queue (UTC)",
        ),
        sa.Column(
            "claimed_by",
            sa.String(length=200),
            nullable=True,
            comment="the worker start (worker_heartbeats.incarnation) that took it",
        ),
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
        comment="One grid found on a page, from rectification to verdict",
    )
    op.create_index(op.f("ix_puzzles_batch_id"), "puzzles", ["batch_id"], unique=False)
    op.create_index(op.f("ix_puzzles_canonical"), "puzzles", ["canonical"], unique=False)
    op.create_index(op.f("ix_puzzles_level"), "puzzles", ["level"], unique=False)
    op.create_index(op.f("ix_puzzles_page_id"), "puzzles", ["page_id"], unique=False)
    op.create_index(op.f("ix_puzzles_public_id"), "puzzles", ["public_id"], unique=True)
    op.create_index(op.f("ix_puzzles_rating"), "puzzles", ["rating"], unique=False)
    op.create_index(op.f("ix_puzzles_role"), "puzzles", ["role"], unique=False)
    op.create_index(op.f("ix_puzzles_status"), "puzzles", ["status"], unique=False)

    op.create_table(
        "cell_corrections",
        sa.Column("id", sa.Integer(), nullable=False, comment="row id"),
        sa.Column("puzzle_id", sa.Integer(), nullable=False, comment="its puzzle"),
        sa.Column("row", sa.Integer(), nullable=False, comment="0-based row, top first"),
        sa.Column("col", sa.Integer(), nullable=False, comment="0-based column, left first"),
        sa.Column(
            "api_key_id",
            sa.Integer(),
            nullable=True,
            comment="who corrected it: the API key used (api_keys.id)",
        ),
        sa.Column("corrected_at", sa.DateTime(timezone=True), nullable=False, comment="when (UTC)"),
        sa.Column(
            "old_kind",
            sa.String(length=10),
            nullable=False,
            comment="the cell before: empty, given or blocked (as read or last corrected)",
        ),
        sa.Column(
            "old_digit", sa.Integer(), nullable=True, comment="the digit before; null if none"
        ),
        sa.Column(
            "new_kind",
            sa.String(length=10),
            nullable=False,
            comment="the cell now: empty, given or blocked",
        ),
        sa.Column("new_digit", sa.Integer(), nullable=True, comment="the digit now; null if none"),
        sa.ForeignKeyConstraint(
            ["api_key_id"], ["api_keys.id"], name=op.f("fk_cell_corrections_api_key_id_api_keys")
        ),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name=op.f("fk_cell_corrections_puzzle_id_puzzles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cell_corrections")),
        comment=(
            "A person's correction of one cell of a reading (who, when, old and new value); the "
            "cells row it corrects is kept as read"
        ),
    )
    op.create_index(
        op.f("ix_cell_corrections_puzzle_id"), "cell_corrections", ["puzzle_id"], unique=False
    )

    op.create_table(
        "cells",
        sa.Column("id", sa.Integer(), nullable=False, comment="row id"),
        sa.Column("puzzle_id", sa.Integer(), nullable=False, comment="its puzzle"),
        sa.Column("row", sa.Integer(), nullable=False, comment="0-based row, top first"),
        sa.Column("col", sa.Integer(), nullable=False, comment="0-based column, left first"),
        sa.Column("kind", sa.String(length=10), nullable=False, comment="empty, given or blocked"),
        sa.Column("digit", sa.Integer(), nullable=True, comment="the digit read; null if none"),
        sa.Column(
            "confidence",
            sa.Float(),
            nullable=True,
            comment="a given: probability of the digit read; an empty cell: how sure it is empty",
        ),
        sa.Column(
            "alternatives",
            JSON,
            nullable=False,
            comment="runner-up readings, [[digit, probability], ...], best first",
        ),
        sa.Column(
            "ink",
            sa.String(length=12),
            nullable=True,
            comment=(
                "empty, given (printed), pencil or handwritten (a solver's marks: kind empty);"
                " null: blocked or not judged"
            ),
        ),
        sa.Column(
            "candidates",
            JSON,
            nullable=False,
            comment="pencil marks: the candidate digits read, rising",
        ),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name=op.f("fk_cells_puzzle_id_puzzles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cells")),
        sa.UniqueConstraint("puzzle_id", "row", "col", name=op.f("uq_cells_puzzle_id_row_col")),
        comment="One cell of a puzzle as read: what it holds and how sure the reader is",
    )
    op.create_table(
        "solutions",
        sa.Column("id", sa.Integer(), nullable=False, comment="row id"),
        sa.Column("puzzle_id", sa.Integer(), nullable=False, comment="its puzzle"),
        sa.Column(
            "verdict",
            sa.String(length=20),
            nullable=False,
            comment=(
                "solved, unsolvable, multiple_solutions, timeout, invalid (givens clash) or"
                " not_sudoku (another grid: not solved)"
            ),
        ),
        sa.Column(
            "grid",
            JSON,
            nullable=True,
            comment="the solution, rows of digits (null blocked); with multiple_solutions, one",
        ),
        sa.Column(
            "second_grid",
            JSON,
            nullable=True,
            comment="with multiple_solutions, a second solution that differs from grid",
        ),
        sa.Column(
            "doubts",
            JSON,
            nullable=False,
            comment="readings the solver set aside as contradicting the others, least sure first",
        ),
        sa.Column(
            "backend",
            sa.String(length=40),
            nullable=True,
            comment="the SAT solver that answered (minisat, kissat, cadical)",
        ),
        sa.Column("seconds", sa.Float(), nullable=True, comment="solver time, seconds"),
        sa.Column(
            "render_path",
            sa.Text(),
            nullable=True,
            comment="the solution drawn on the page, relative to the data directory",
        ),
        sa.Column("message", sa.Text(), nullable=True, comment="the solver's remark, in words"),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, comment="when solved (UTC)"
        ),
        sa.Column(
            "suggestion",
            JSON,
            nullable=True,
            comment=(
                "when the printed puzzle as read has no solution but a repaired reading has one:"
                " {givens, solution, doubts}; else null"
            ),
        ),
        sa.Column(
            "entries_check",
            JSON,
            nullable=True,
            comment=(
                "handwritten entries and pencil marks checked against the unique solution;"
                " null: no unique solution"
            ),
        ),
        sa.ForeignKeyConstraint(
            ["puzzle_id"],
            ["puzzles.id"],
            name=op.f("fk_solutions_puzzle_id_puzzles"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_solutions")),
        sa.UniqueConstraint("puzzle_id", name=op.f("uq_solutions_puzzle_id")),
        comment="The solver's answer for a puzzle (at most one per puzzle)",
    )
    op.create_table(
        "stage_runs",
        sa.Column("id", sa.Integer(), nullable=False, comment="row id"),
        sa.Column("batch_id", sa.Integer(), nullable=False, comment="its batch"),
        sa.Column(
            "input_file_id",
            sa.Integer(),
            nullable=True,
            comment="the input file it ran on (exactly one of input_file_id, page_id, puzzle_id)",
        ),
        sa.Column("page_id", sa.Integer(), nullable=True, comment="the page it ran on"),
        sa.Column("puzzle_id", sa.Integer(), nullable=True, comment="the puzzle it ran on"),
        sa.Column(
            "stage", sa.String(length=20), nullable=False, comment="ingest, rectify, ocr or solve"
        ),
        sa.Column("status", sa.String(length=20), nullable=False, comment="ok or failed"),
        sa.Column(
            "started_at",
            sa.DateTime(timezone=True),
            nullable=False,
            comment="when it started (UTC)",
        ),
        sa.Column(
            "finished_at", sa.DateTime(timezone=True), nullable=False, comment="when it ended (UTC)"
        ),
        sa.Column("seconds", sa.Float(), nullable=False, comment="how long it ran, seconds"),
        sa.Column(
            "waited_seconds",
            sa.Float(),
            nullable=True,
            comment="from being sent to its queue to being taken by a worker; null when embedded",
        ),
        sa.Column(
            "worker",
            sa.String(length=200),
            nullable=True,
            comment="the host and process that ran it",
        ),
        sa.Column(
            "error_code",
            sa.String(length=40),
            nullable=True,
            comment="why it failed, as a code (docs/errors.md)",
        ),
        sa.Column("message", sa.Text(), nullable=True, comment="why it failed, in words"),
        sa.Column(
            "task",
            sa.String(length=20),
            nullable=True,
            comment="the server task it ran in, by its stage (ingest, rectify, ocr, solve; a solve "
            "settled inline in the OCR task: ocr); null when embedded or refused by the API",
        ),
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
        comment=(
            "The last run of one stage (ingest, rectify, ocr, solve) on one input file, page or "
            "puzzle: timings, worker, errors"
        ),
    )
    op.create_index(op.f("ix_stage_runs_batch_id"), "stage_runs", ["batch_id"], unique=False)
    op.create_index(
        "ix_stage_runs_input_file_id_stage", "stage_runs", ["input_file_id", "stage"], unique=True
    )
    op.create_index("ix_stage_runs_page_id_stage", "stage_runs", ["page_id", "stage"], unique=True)
    op.create_index(
        "ix_stage_runs_puzzle_id_stage", "stage_runs", ["puzzle_id", "stage"], unique=True
    )
    for statement in create_statements(op.get_bind().dialect.name):
        op.execute(statement)


def downgrade() -> None:
    # Dropping a table drops its indexes; the views go first, as they read the tables.
    for statement in DROP_STATEMENTS:
        op.execute(statement)
    for table in (
        "stage_runs",
        "solutions",
        "cells",
        "cell_corrections",
        "puzzles",
        "pages",
        "input_files",
        "batches",
        "worker_heartbeats",
        "api_keys",
    ):
        op.drop_table(table)
