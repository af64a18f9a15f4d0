"""The schema: one table per thing a person asks about, named plainly for ad-hoc SQL.

batches ─< input_files ─< pages ─< puzzles ─< cells
                                     puzzles ─ solutions (one each)
stage_runs: one row per stage run on an input file, page or puzzle (timings, worker, errors)
puzzle_results (a view, made by the migrations): one row per grid with page, verdict, solution

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
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    Uuid,
    false,
    types,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Stable constraint names, so migrations can drop and alter them on every database.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Json = JSON().with_variant(JSONB(), "postgresql")


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
    """A puzzle's state; the last six are final and are the results file's ``status``."""

    PENDING = "pending"  # found and rectified, not yet read
    READ = "read"  # read, not yet solved
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # includes readings whose givens clash (verdict ``invalid``)
    MULTIPLE_SOLUTIONS = "multiple_solutions"
    TIMEOUT = "timeout"
    FAILED = "failed"


class ApiKey(Base):
    """A key the API accepts; only its SHA-256 is kept (keys are long random tokens, so a
    fast hash is enough: there is no password to guess)."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)
    revoked_at: Mapped[datetime | None] = mapped_column()


class WorkerHeartbeat(Base):
    """One running worker process tree (one start of a worker), as it last said it was alive:
    a subject claimed by an incarnation that stopped beating is handed out again."""

    __tablename__ = "worker_heartbeats"

    incarnation: Mapped[str] = mapped_column(String(200), primary_key=True)
    hostname: Mapped[str] = mapped_column(String(200))
    started_at: Mapped[datetime] = mapped_column(default=utc_now)
    last_seen: Mapped[datetime] = mapped_column(default=utc_now)


class Batch(Base):
    __tablename__ = "batches"

    id: Mapped[int] = mapped_column(primary_key=True)
    # What URLs and clients see: a sequential id would let anyone count and guess batches.
    public_id: Mapped[uuid.UUID] = mapped_column(Uuid, default=uuid.uuid4, unique=True, index=True)
    # The key that submitted it (None: the embedded runner); only that key can read it.
    api_key_id: Mapped[int | None] = mapped_column(ForeignKey("api_keys.id"), index=True)
    label: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class Handover:
    """When a subject (input file, page, puzzle) was last handed to its queue and claimed by a
    task, so the recovery sweep can tell a waiting subject from a stranded one
    (``workers.sweep``). ``queued_at`` None: stored, but its message not yet sent."""

    queued_at: Mapped[datetime | None] = mapped_column()
    started_at: Mapped[datetime | None] = mapped_column()
    claimed_by: Mapped[str | None] = mapped_column(String(200))  # a worker incarnation


class InputFile(Handover, Base):
    """One file a user handed in: an image, a PDF or a zip archive, or a text file of puzzles
    (one per line; each line is a page of it)."""

    __tablename__ = "input_files"
    __table_args__ = (UniqueConstraint("batch_id", "stored_path"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("batches.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(Text)  # as the user gave it; the results' ``source``
    stored_path: Mapped[str] = mapped_column(Text)  # relative to the data dir
    # A text file of puzzles (one per line), ingested by its own task; else images/PDF/zip.
    is_text: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The box shape a user gave for a text file of puzzles; None: the usual one for each size.
    box_rows: Mapped[int | None] = mapped_column(Integer)
    box_cols: Mapped[int | None] = mapped_column(Integer)
    # SHA-256 of the file as listed: a resumed run redoes a file whose content changed.
    content_hash: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(20), default=InputStatus.PENDING)
    error_code: Mapped[str | None] = mapped_column(String(40))
    message: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class Page(Handover, Base):
    """One page of an input: an image, a PDF page, a TIFF frame or a zip member; or one puzzle
    line of a text file (``page_number`` is the line's number, ``format`` is ``text_line``)."""

    __tablename__ = "pages"
    __table_args__ = (UniqueConstraint("input_file_id", "source", "page_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("batches.id", ondelete="CASCADE"), index=True)
    input_file_id: Mapped[int] = mapped_column(
        ForeignKey("input_files.id", ondelete="CASCADE"), index=True
    )
    source: Mapped[str] = mapped_column(Text)  # path as given, or archive.zip/inner/path
    page_number: Mapped[int] = mapped_column(Integer)  # 1-based
    # Enough of pipeline.ingest.sources.PageSource to load the page again in another process.
    format: Mapped[str] = mapped_column(String(20))
    member: Mapped[str | None] = mapped_column(Text)
    frame_index: Mapped[int] = mapped_column(Integer, default=0)
    image_path: Mapped[str | None] = mapped_column(Text)  # the page as PNG, once loaded
    width: Mapped[int | None] = mapped_column(Integer)
    height: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), default=PageStatus.PENDING, index=True)
    error_code: Mapped[str | None] = mapped_column(String(40))
    message: Mapped[str | None] = mapped_column(Text)


class Puzzle(Handover, Base):
    """One grid found on a page, from rectification to verdict."""

    __tablename__ = "puzzles"
    __table_args__ = (UniqueConstraint("page_id", "index_on_page"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[uuid.UUID] = mapped_column(Uuid, default=uuid.uuid4, unique=True, index=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("batches.id", ondelete="CASCADE"), index=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("pages.id", ondelete="CASCADE"), index=True)
    index_on_page: Mapped[int] = mapped_column(Integer)  # 0-based, reading order
    status: Mapped[str] = mapped_column(String(20), default=PuzzleStatus.PENDING, index=True)
    size: Mapped[int | None] = mapped_column(Integer)  # N of an N x N grid
    box_rows: Mapped[int | None] = mapped_column(Integer)
    box_cols: Mapped[int | None] = mapped_column(Integer)
    # [[x, y] x4] TL, TR, BR, BL in page pixels; None for a puzzle given as text
    corners: Mapped[list[Any] | None] = mapped_column()
    # The board as last stored (upright once read): page->board homography, lattice lines.
    homography: Mapped[list[Any] | None] = mapped_column()
    lattice: Mapped[dict[str, Any] | None] = mapped_column()  # {"row_lines": [], "col_lines": []}
    rotation: Mapped[int] = mapped_column(Integer, default=0)  # CCW quarter turns to upright
    board_image_path: Mapped[str | None] = mapped_column(Text)
    givens: Mapped[list[Any] | None] = mapped_column()  # rows as read; 0 empty, null blocked
    lowest_confidence: Mapped[float | None] = mapped_column(Float)
    error_code: Mapped[str | None] = mapped_column(String(40))
    message: Mapped[str | None] = mapped_column(Text)
    # The book check (pipeline.book.facts), set with the solution. ``role``: puzzle, or answer
    # (every cell printed). ``rating`` on the SE scale, None with ``rating_reason`` saying why.
    role: Mapped[str | None] = mapped_column(String(10), index=True)
    rating: Mapped[float | None] = mapped_column(Float, index=True)
    techniques: Mapped[list[Any] | None] = mapped_column()  # names, hardest last
    level: Mapped[str | None] = mapped_column(String(20), index=True)
    rating_reason: Mapped[str | None] = mapped_column(Text)
    # Equal for a puzzle and every disguise of it: indexed, so copies are one lookup away, in a
    # batch and across batches. ``canonical_complete`` False: a weaker form (16x16 and up).
    canonical: Mapped[str | None] = mapped_column(Text, index=True)
    canonical_complete: Mapped[bool | None] = mapped_column()
    # Printed near the grid ("Easy", "Puzzle 12"), when read; not read from images yet.
    printed_label: Mapped[str | None] = mapped_column(String(40))
    printed_number: Mapped[int | None] = mapped_column(Integer)


class Cell(Base):
    __tablename__ = "cells"
    __table_args__ = (UniqueConstraint("puzzle_id", "row", "col"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))
    row: Mapped[int] = mapped_column(Integer)  # 0-based
    col: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))  # empty, given, blocked
    digit: Mapped[int | None] = mapped_column(Integer)
    confidence: Mapped[float | None] = mapped_column(Float)
    alternatives: Mapped[list[Any]] = mapped_column(default=list)  # [[digit, probability]...]


class Solution(Base):
    __tablename__ = "solutions"

    id: Mapped[int] = mapped_column(primary_key=True)
    puzzle_id: Mapped[int] = mapped_column(
        ForeignKey("puzzles.id", ondelete="CASCADE"), unique=True
    )
    verdict: Mapped[str] = mapped_column(String(20))  # pipeline.solve.result.Verdict
    grid: Mapped[list[Any] | None] = mapped_column()
    second_grid: Mapped[list[Any] | None] = mapped_column()  # with multiple_solutions
    doubts: Mapped[list[Any]] = mapped_column(default=list)  # readings set aside, as dicts
    backend: Mapped[str | None] = mapped_column(String(40))
    seconds: Mapped[float | None] = mapped_column(Float)  # solver time
    render_path: Mapped[str | None] = mapped_column(Text)
    message: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utc_now)


class StageRun(Base):
    """The last run of one stage on one input file, page or puzzle."""

    __tablename__ = "stage_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("batches.id", ondelete="CASCADE"), index=True)
    # Exactly one subject is set. Indexed: runs are replaced and cascaded by subject.
    input_file_id: Mapped[int | None] = mapped_column(
        ForeignKey("input_files.id", ondelete="CASCADE"), index=True
    )
    page_id: Mapped[int | None] = mapped_column(
        ForeignKey("pages.id", ondelete="CASCADE"), index=True
    )
    puzzle_id: Mapped[int | None] = mapped_column(
        ForeignKey("puzzles.id", ondelete="CASCADE"), index=True
    )
    stage: Mapped[str] = mapped_column(String(20))  # ingest, rectify, ocr, solve
    status: Mapped[str] = mapped_column(String(20))  # ok, failed
    started_at: Mapped[datetime] = mapped_column()
    finished_at: Mapped[datetime] = mapped_column()
    seconds: Mapped[float] = mapped_column(Float)
    # From being sent to its queue to being taken by a worker (None in the embedded runner).
    waited_seconds: Mapped[float | None] = mapped_column(Float)
    worker: Mapped[str | None] = mapped_column(String(200))  # hostname and pid
    error_code: Mapped[str | None] = mapped_column(String(40))
    message: Mapped[str | None] = mapped_column(Text)
