"""The schema: one table per thing a person asks about, named plainly for ad-hoc SQL.

batches ─< input_files ─< pages ─< puzzles ─< cells
                                     puzzles ─ solutions (one each)
                                     puzzles ─< cell_corrections (a person's word on a cell)
stage_runs: one row per stage run on an input file, page or puzzle (timings, worker, errors)
results, cell_readings, puzzle_results (views, store/results_view.py): results.jsonl's
records; one row per cell read; one row per grid with page, verdict, solution

Every table and column has a ``comment=``: PostgreSQL shows it in ``\\d+`` (a later change to
one needs a migration, which ``alembic check`` in the tests asks for).

Status values are plain strings (see the ``*Status`` classes) so ``WHERE status = 'solved'``
works in any SQL client. JSON columns are JSONB on PostgreSQL (queryable with ``->``, ``@>``)
and JSON text on SQLite. Timestamps are timezone-aware UTC on both.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    Uuid,
    false,
    types,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Stable constraint names, so migrations can drop and alter them on every database.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class _JsonOrJsonb(types.TypeDecorator[Any]):
    """JSON text on SQLite, JSONB on PostgreSQL, as ``JSON().with_variant(JSONB(), ...)``
    was: the same DDL. JSONB is looked up only by a PostgreSQL engine, since importing
    ``sqlalchemy.dialects.postgresql`` loads every driver module of the dialect, which a run
    on SQLite does without."""

    impl = JSON
    cache_ok = True
    should_evaluate_none = True  # as JSON's: None is stored as JSON null, as before

    def load_dialect_impl(self, dialect: Any) -> types.TypeEngine[Any]:
        if dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import JSONB

            return dialect.type_descriptor(JSONB())
        return dialect.type_descriptor(JSON())


Json = _JsonOrJsonb()


class UtcDateTime(types.TypeDecorator[datetime]):
    """A timezone-aware timestamp: SQLite keeps no zone, so values are read back as UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


def utc_now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UtcDateTime(), dict[str, Any]: Json, list[Any]: Json}


class InputStatus(StrEnum):
    PENDING = "pending"  # uploaded, not yet listed into pages
    EXPANDED = "expanded"  # its pages are listed
    FAILED = "failed"


class PageStatus(StrEnum):
    PENDING = "pending"  # listed, not yet searched for boards
    DONE = "done"  # searched; its boards are puzzles
    NO_GRID = "no_grid"
    FAILED = "failed"
    # The run was stopped before the page was done; running it again resumes it.
    INTERRUPTED = "interrupted"


class PuzzleStatus(StrEnum):
    """A puzzle's state; the last seven are final and are the results file's ``status``."""

    PENDING = "pending"  # found and rectified, not yet read
    READ = "read"  # read, not yet solved
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # includes readings whose givens clash (verdict ``invalid``)
    MULTIPLE_SOLUTIONS = "multiple_solutions"
    TIMEOUT = "timeout"
    FAILED = "failed"
    # Another grid (a hints grid, a table, a calendar, a fragment): no verdict, role "other".
    NOT_SUDOKU = "not_sudoku"


class ApiKey(Base):
    """A key the API accepts; only its SHA-256 is kept (keys are long random tokens, so a
    fast hash is enough: there is no password to guess)."""

    __tablename__ = "api_keys"
    __table_args__ = {"comment": "API keys the server accepts; only each key's SHA-256 is kept"}

    id: Mapped[int] = mapped_column(primary_key=True, comment="row id")
    name: Mapped[str] = mapped_column(
        String(100), unique=True, comment="who or what the key is for, as given at creation"
    )
    key_hash: Mapped[str] = mapped_column(
        String(64), unique=True, comment="SHA-256 of the key, hex; the key itself is not kept"
    )
    created_at: Mapped[datetime] = mapped_column(default=utc_now, comment="when made (UTC)")
    revoked_at: Mapped[datetime | None] = mapped_column(
        comment="when revoked (UTC); null: the key is live"
    )


class WorkerHeartbeat(Base):
    """One running worker process tree (one start of a worker), as it last said it was alive:
    a subject claimed by an incarnation that stopped beating is handed out again."""

    __tablename__ = "worker_heartbeats"
    __table_args__ = {
        "comment": "One row per start of a worker and when it last said it was alive; work "
        "claimed by a worker that stopped beating is handed out again"
    }

    incarnation: Mapped[str] = mapped_column(
        String(200), primary_key=True, comment="this start of the worker: host, pid and a token"
    )
    hostname: Mapped[str] = mapped_column(String(200), comment="the machine it runs on")
    started_at: Mapped[datetime] = mapped_column(default=utc_now, comment="when it started (UTC)")
    last_seen: Mapped[datetime] = mapped_column(default=utc_now, comment="its last heartbeat (UTC)")


class Batch(Base):
    __tablename__ = "batches"
    __table_args__ = {
        "comment": "One submission: a run of the embedded runner, or a POST to the API"
    }

    id: Mapped[int] = mapped_column(primary_key=True, comment="row id (results' batch_id)")
    # What URLs and clients see: a sequential id would let anyone count and guess batches.
    public_id: Mapped[uuid.UUID] = mapped_column(
        Uuid,
        default=uuid.uuid4,
        unique=True,
        index=True,
        comment="the batch's id in the API's URLs and answers",
    )
    # The key that submitted it (None: the embedded runner); only that key can read it.
    api_key_id: Mapped[int | None] = mapped_column(
        ForeignKey("api_keys.id"),
        index=True,
        comment="the API key that submitted it, the only one that can read it; null: embedded",
    )
    label: Mapped[str | None] = mapped_column(
        String(200), comment="a name for people: the inputs of an embedded run, or as given"
    )
    created_at: Mapped[datetime] = mapped_column(default=utc_now, comment="when made (UTC)")


class Handover:
    """When a subject (input file, page, puzzle) was last handed to its queue and claimed by a
    task, so the recovery sweep can tell a waiting subject from a stranded one
    (``workers.sweep``). ``queued_at`` None: stored, but its message not yet sent."""

    queued_at: Mapped[datetime | None] = mapped_column(
        comment="when last sent to its queue (UTC); null: not sent (yet), or embedded"
    )
    started_at: Mapped[datetime | None] = mapped_column(
        comment="when a worker last took it from its queue (UTC)"
    )
    claimed_by: Mapped[str | None] = mapped_column(
        String(200), comment="the worker start (worker_heartbeats.incarnation) that took it"
    )


class InputFile(Handover, Base):
    """One file a user handed in: an image, a PDF or a zip archive, or a text file of puzzles
    (one per line; each line is a page of it)."""

    __tablename__ = "input_files"
    __table_args__ = (
        UniqueConstraint("batch_id", "stored_path"),
        {
            "comment": "One file a user handed in: an image, a PDF, a zip archive, or a text "
            "file of puzzles (one per line)"
        },
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="row id")
    batch_id: Mapped[int] = mapped_column(
        ForeignKey("batches.id", ondelete="CASCADE"), index=True, comment="its batch"
    )
    name: Mapped[str] = mapped_column(
        Text, comment="the file's name as the user gave it; the results' source"
    )
    stored_path: Mapped[str] = mapped_column(
        Text, comment="where the file is kept, relative to the data directory"
    )
    # A text file of puzzles (one per line), ingested by its own task; else images/PDF/zip.
    is_text: Mapped[bool] = mapped_column(
        default=False,
        server_default=false(),
        comment="true: a text file of puzzles, one per line; false: images, PDF or zip",
    )
    # The box shape a user gave for a text file of puzzles; None: the usual one for each size.
    box_rows: Mapped[int | None] = mapped_column(
        Integer, comment="box rows given for a text file; null: the usual shape for each size"
    )
    box_cols: Mapped[int | None] = mapped_column(
        Integer, comment="box columns given for a text file; null: the usual shape"
    )
    # SHA-256 of the file as listed: a resumed run redoes a file whose content changed.
    content_hash: Mapped[str | None] = mapped_column(
        String(64), comment="SHA-256 of the file when listed; a resumed run redoes a changed file"
    )
    status: Mapped[str] = mapped_column(
        String(20),
        default=InputStatus.PENDING,
        comment="pending (not yet listed into pages), expanded (pages listed) or failed",
    )
    error_code: Mapped[str | None] = mapped_column(
        String(40), comment="why it failed, as a code (docs/errors.md); null unless failed"
    )
    message: Mapped[str | None] = mapped_column(
        Text, comment="why it failed, in words, naming the input and what to do"
    )
    created_at: Mapped[datetime] = mapped_column(default=utc_now, comment="when received (UTC)")


class Page(Handover, Base):
    """One page of an input: an image, a PDF page, a TIFF frame or a zip member; or one puzzle
    line of a text file (``page_number`` is the line's number, ``format`` is ``text_line``)."""

    __tablename__ = "pages"
    __table_args__ = (
        UniqueConstraint("input_file_id", "source", "page_number"),
        {
            "comment": "One page of an input file: an image, a PDF page, a TIFF frame, a zip "
            "member, or one puzzle line of a text file"
        },
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="row id")
    batch_id: Mapped[int] = mapped_column(
        ForeignKey("batches.id", ondelete="CASCADE"), index=True, comment="its batch"
    )
    input_file_id: Mapped[int] = mapped_column(
        ForeignKey("input_files.id", ondelete="CASCADE"), index=True, comment="its input file"
    )
    source: Mapped[str] = mapped_column(
        Text, comment="the input as given, or archive.zip/inner/path; the results' source"
    )
    page_number: Mapped[int] = mapped_column(
        Integer, comment="1-based page of the source (a text file: its line number)"
    )
    # Enough of pipeline.ingest.sources.PageSource to load the page again in another process.
    format: Mapped[str] = mapped_column(
        String(20), comment="how to load it again: image, pdf, zip member, text_line, ..."
    )
    member: Mapped[str | None] = mapped_column(Text, comment="the zip member it comes from")
    frame_index: Mapped[int] = mapped_column(
        Integer, default=0, comment="0-based frame of a multi-frame image (TIFF)"
    )
    image_path: Mapped[str | None] = mapped_column(
        Text,
        comment="the page as an image, relative to the data directory; null unless page "
        "images are kept (--keep-intermediates, SUDOKU_BATCH_KEEP_PAGE_IMAGES)",
    )
    width: Mapped[int | None] = mapped_column(Integer, comment="page image width, pixels")
    height: Mapped[int | None] = mapped_column(Integer, comment="page image height, pixels")
    status: Mapped[str] = mapped_column(
        String(20),
        default=PageStatus.PENDING,
        index=True,
        comment="pending, done (its grids are puzzles), no_grid, failed or interrupted",
    )
    error_code: Mapped[str | None] = mapped_column(
        String(40), comment="why it failed, as a code (docs/errors.md)"
    )
    message: Mapped[str | None] = mapped_column(Text, comment="why it failed, in words")
    damaged: Mapped[str | None] = mapped_column(
        Text,
        comment="the decoder's warning when the file is damaged (a truncated image, a broken "
        "PDF stream); null: decoded cleanly",
    )


class Puzzle(Handover, Base):
    """One grid found on a page, from rectification to verdict."""

    __tablename__ = "puzzles"
    __table_args__ = (
        UniqueConstraint("page_id", "index_on_page"),
        {"comment": "One grid found on a page, from rectification to verdict"},
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="row id (results' puzzle_id)")
    public_id: Mapped[uuid.UUID] = mapped_column(
        Uuid,
        default=uuid.uuid4,
        unique=True,
        index=True,
        comment="the puzzle's id in the API's URLs and answers",
    )
    batch_id: Mapped[int] = mapped_column(
        ForeignKey("batches.id", ondelete="CASCADE"), index=True, comment="its batch"
    )
    page_id: Mapped[int] = mapped_column(
        ForeignKey("pages.id", ondelete="CASCADE"), index=True, comment="the page it is on"
    )
    index_on_page: Mapped[int] = mapped_column(
        Integer, comment="0-based, in reading order; the results' index"
    )
    status: Mapped[str] = mapped_column(
        String(20),
        default=PuzzleStatus.PENDING,
        index=True,
        comment="pending, read, then solved, unsolvable, multiple_solutions, timeout, failed, "
        "or not_sudoku (another grid: no verdict)",
    )
    size: Mapped[int | None] = mapped_column(Integer, comment="N of an N x N grid")
    box_rows: Mapped[int | None] = mapped_column(Integer, comment="rows of one box")
    box_cols: Mapped[int | None] = mapped_column(Integer, comment="columns of one box")
    corners: Mapped[list[Any] | None] = mapped_column(
        comment="[[x, y] x4]: top-left, top-right, bottom-right, bottom-left in page pixels; "
        "null for a puzzle given as text"
    )
    # The board as last stored (upright once read): page->board homography, lattice lines.
    homography: Mapped[list[Any] | None] = mapped_column(
        comment="3x3 page-to-board homography of the board as last stored (upright once read)"
    )
    lattice: Mapped[dict[str, Any] | None] = mapped_column(
        comment='the grid lines found on the board: {"row_lines": [...], "col_lines": [...]}'
    )
    rotation: Mapped[int] = mapped_column(
        Integer, default=0, comment="counter-clockwise quarter turns that made the board upright"
    )
    board_image_path: Mapped[str | None] = mapped_column(
        Text, comment="the board as an upright image, relative to the data directory"
    )
    givens: Mapped[list[Any] | None] = mapped_column(
        comment="the grid as read, rows of digits: 0 empty, null a blocked cell"
    )
    lowest_confidence: Mapped[float | None] = mapped_column(
        Float, comment="lowest confidence among the cells read (the results' confidence)"
    )
    error_code: Mapped[str | None] = mapped_column(
        String(40),
        comment="why it is not solved, as a code (docs/errors.md; invalid: givens clash)",
    )
    message: Mapped[str | None] = mapped_column(Text, comment="why it is not solved, in words")
    # The book check (pipeline.book.facts), set with the solution.
    role: Mapped[str | None] = mapped_column(
        String(10),
        index=True,
        comment="puzzle, answer (a grid printed with every cell filled), or other (no Sudoku)",
    )
    other_reason: Mapped[str | None] = mapped_column(
        Text,
        comment="why the grid is no Sudoku (a hints grid, a table, a fragment), as read; null: "
        "it is one",
    )
    rating: Mapped[float | None] = mapped_column(
        Float,
        index=True,
        comment="difficulty on the Sudoku Explainer scale (null: rating_reason)",
    )
    techniques: Mapped[list[Any] | None] = mapped_column(
        comment="the solving techniques the rating needed, hardest last"
    )
    level: Mapped[str | None] = mapped_column(
        String(20), index=True, comment="the rating's level: easy, medium, hard, fiendish, ..."
    )
    rating_reason: Mapped[str | None] = mapped_column(
        Text, comment="why there is no rating, or why it is not an SE rating"
    )
    canonical: Mapped[str | None] = mapped_column(
        Text,
        index=True,
        comment="equal for a puzzle and every disguise of it (relabelled, swapped, turned)",
    )
    canonical_complete: Mapped[bool | None] = mapped_column(
        comment="false: a weaker form (16x16 and up) that may miss disguised copies"
    )
    printed_label: Mapped[str | None] = mapped_column(
        String(40),
        comment="the difficulty printed in the caption nearest the grid ('Easy'); null: none read",
    )
    printed_number: Mapped[int | None] = mapped_column(
        Integer,
        comment="the puzzle number printed in the caption nearest the grid; null: none read",
    )
    printed_role: Mapped[str | None] = mapped_column(
        String(10),
        comment="what the caption or page heading printed near the grid calls it: puzzle, or "
        "answer ('Solution 7'); null: neither read",
    )
    symbols: Mapped[str | None] = mapped_column(
        String(10),
        comment="how the grid prints digits above 9, as read: numbers (10, 11, ...) or letters "
        "(A, B, ...); null: none read",
    )
    variant: Mapped[str | None] = mapped_column(
        String(20),
        comment="classic, jigsaw, diagonal, or a combination such as jigsaw+diagonal; null: no "
        "grid shape yet",
    )
    regions: Mapped[list[Any] | None] = mapped_column(
        comment="N x N region numbers 0..N-1, in reading order of each region's first cell "
        "(the boxes of a classic grid); null: no grid shape yet"
    )
    # The certificate (pipeline.certify), set with the solution.
    certified: Mapped[bool | None] = mapped_column(
        comment="whether the outcome needs no review: every reading confident, none doubted, "
        "a whole page, a sure lattice, one solution checked; null: not solved yet"
    )
    review_reasons: Mapped[list[Any] | None] = mapped_column(
        comment="why it is not certified: [{code, message}, ...]; null: not solved yet"
    )
    ink: Mapped[list[Any] | None] = mapped_column(
        comment="each cell's ink as read, rows of: empty, given (printed), pencil, handwritten; "
        "null a blocked cell",
    )
    regions_certainty: Mapped[float | None] = mapped_column(
        Float,
        comment="how sure the regions read from the image are, 0..1 (under 0.5: in doubt, "
        "pipeline.vision.regions); null: not read from an image",
    )


class Cell(Base):
    __tablename__ = "cells"
    __table_args__ = (
        UniqueConstraint("puzzle_id", "row", "col"),
        {"comment": "One cell of a puzzle as read: what it holds and how sure the reader is"},
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="row id")
    puzzle_id: Mapped[int] = mapped_column(
        ForeignKey("puzzles.id", ondelete="CASCADE"), comment="its puzzle"
    )
    row: Mapped[int] = mapped_column(Integer, comment="0-based row, top first")
    col: Mapped[int] = mapped_column(Integer, comment="0-based column, left first")
    kind: Mapped[str] = mapped_column(String(10), comment="empty, given or blocked")
    digit: Mapped[int | None] = mapped_column(Integer, comment="the digit read; null if none")
    confidence: Mapped[float | None] = mapped_column(
        Float,
        comment="a given: probability of the digit read; an empty cell: how sure it is empty",
    )
    alternatives: Mapped[list[Any]] = mapped_column(
        default=list, comment="runner-up readings, [[digit, probability], ...], best first"
    )
    ink: Mapped[str | None] = mapped_column(
        String(12),
        comment="empty, given (printed), pencil or handwritten (a solver's marks: kind empty); "
        "null: blocked or not judged",
    )
    candidates: Mapped[list[Any]] = mapped_column(
        default=list, comment="pencil marks: the candidate digits read, rising"
    )


class CellCorrection(Base):
    """A person's correction of one cell, kept beside the reading it corrects (the ``cells``
    row is never changed): the solve step reads the cells with their latest corrections."""

    __tablename__ = "cell_corrections"
    __table_args__ = {
        "comment": "A person's correction of one cell of a reading (who, when, old and new "
        "value); the cells row it corrects is kept as read"
    }

    id: Mapped[int] = mapped_column(primary_key=True, comment="row id")
    # By puzzle, row and column, not by cells.id: the OCR stage replaces a puzzle's cells rows.
    puzzle_id: Mapped[int] = mapped_column(
        ForeignKey("puzzles.id", ondelete="CASCADE"), index=True, comment="its puzzle"
    )
    row: Mapped[int] = mapped_column(Integer, comment="0-based row, top first")
    col: Mapped[int] = mapped_column(Integer, comment="0-based column, left first")
    api_key_id: Mapped[int | None] = mapped_column(
        ForeignKey("api_keys.id"), comment="who corrected it: the API key used (api_keys.id)"
    )
    corrected_at: Mapped[datetime] = mapped_column(default=utc_now, comment="when (UTC)")
    old_kind: Mapped[str] = mapped_column(
        String(10), comment="the cell before: empty, given or blocked (as read or last corrected)"
    )
    old_digit: Mapped[int | None] = mapped_column(Integer, comment="the digit before; null if none")
    new_kind: Mapped[str] = mapped_column(
        String(10), comment="the cell now: empty, given or blocked"
    )
    new_digit: Mapped[int | None] = mapped_column(Integer, comment="the digit now; null if none")


class Solution(Base):
    __tablename__ = "solutions"
    __table_args__ = {"comment": "The solver's answer for a puzzle (at most one per puzzle)"}

    id: Mapped[int] = mapped_column(primary_key=True, comment="row id")
    puzzle_id: Mapped[int] = mapped_column(
        ForeignKey("puzzles.id", ondelete="CASCADE"), unique=True, comment="its puzzle"
    )
    verdict: Mapped[str] = mapped_column(
        String(20),
        comment="solved, unsolvable, multiple_solutions, timeout, invalid (givens clash) or "
        "not_sudoku (another grid: not solved)",
    )
    grid: Mapped[list[Any] | None] = mapped_column(
        comment="the solution, rows of digits (null blocked); with multiple_solutions, one"
    )
    second_grid: Mapped[list[Any] | None] = mapped_column(
        comment="with multiple_solutions, a second solution that differs from grid"
    )
    doubts: Mapped[list[Any]] = mapped_column(
        default=list,
        comment="readings the solver set aside as contradicting the others, least sure first",
    )
    backend: Mapped[str | None] = mapped_column(
        String(40), comment="the SAT solver that answered (minisat, kissat, cadical)"
    )
    seconds: Mapped[float | None] = mapped_column(Float, comment="solver time, seconds")
    render_path: Mapped[str | None] = mapped_column(
        Text, comment="the solution drawn on the page, relative to the data directory"
    )
    message: Mapped[str | None] = mapped_column(Text, comment="the solver's remark, in words")
    created_at: Mapped[datetime] = mapped_column(default=utc_now, comment="when solved (UTC)")
    suggestion: Mapped[dict[str, Any] | None] = mapped_column(
        comment="when the printed puzzle as read has no solution but a repaired reading has "
        "one: {givens, solution, doubts}; else null"
    )
    entries_check: Mapped[list[Any] | None] = mapped_column(
        comment="handwritten entries and pencil marks checked against the unique solution; "
        "null: no unique solution",
    )


class StageRun(Base):
    """The last run of one stage on one input file, page or puzzle."""

    __tablename__ = "stage_runs"
    # One run per stage and subject, so recording a run is one upsert on its subject's index
    # (a row whose subject column is null never conflicts on it). Each index also serves
    # lookups and cascades by its subject.
    __table_args__ = (
        Index("ix_stage_runs_input_file_id_stage", "input_file_id", "stage", unique=True),
        Index("ix_stage_runs_page_id_stage", "page_id", "stage", unique=True),
        Index("ix_stage_runs_puzzle_id_stage", "puzzle_id", "stage", unique=True),
        {
            "comment": "The last run of one stage (ingest, rectify, ocr, solve) on one input "
            "file, page or puzzle: timings, worker, errors"
        },
    )

    id: Mapped[int] = mapped_column(primary_key=True, comment="row id")
    batch_id: Mapped[int] = mapped_column(
        ForeignKey("batches.id", ondelete="CASCADE"), index=True, comment="its batch"
    )
    # Exactly one subject is set.
    input_file_id: Mapped[int | None] = mapped_column(
        ForeignKey("input_files.id", ondelete="CASCADE"),
        comment="the input file it ran on (exactly one of input_file_id, page_id, puzzle_id)",
    )
    page_id: Mapped[int | None] = mapped_column(
        ForeignKey("pages.id", ondelete="CASCADE"), comment="the page it ran on"
    )
    puzzle_id: Mapped[int | None] = mapped_column(
        ForeignKey("puzzles.id", ondelete="CASCADE"), comment="the puzzle it ran on"
    )
    stage: Mapped[str] = mapped_column(String(20), comment="ingest, rectify, ocr or solve")
    status: Mapped[str] = mapped_column(String(20), comment="ok or failed")
    started_at: Mapped[datetime] = mapped_column(comment="when it started (UTC)")
    finished_at: Mapped[datetime] = mapped_column(comment="when it ended (UTC)")
    seconds: Mapped[float] = mapped_column(Float, comment="how long it ran, seconds")
    waited_seconds: Mapped[float | None] = mapped_column(
        Float,
        comment="from being sent to its queue to being taken by a worker; null when embedded",
    )
    worker: Mapped[str | None] = mapped_column(
        String(200), comment="the host and process that ran it"
    )
    error_code: Mapped[str | None] = mapped_column(
        String(40), comment="why it failed, as a code (docs/errors.md)"
    )
    message: Mapped[str | None] = mapped_column(Text, comment="why it failed, in words")
    task: Mapped[str | None] = mapped_column(
        String(20),
        comment="the server task it ran in, by its stage (ingest, rectify, ocr, solve; a solve "
        "settled inline in the OCR task: ocr); null when embedded or refused by the API",
    )
