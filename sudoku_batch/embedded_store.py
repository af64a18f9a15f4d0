"""The embedded run's side of the store: its SQLite database, each page's rows, and the
result records read back from them.

Imported by ``sudoku_batch.embedded`` only once a lone page has been forked
(``sudoku_batch.startup``), so the page's process never loads SQLAlchemy.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from sqlalchemy import Engine, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.embedded import DATABASE_NAME, RESULTS_NAME
from sudoku_batch.page_job import PAGE_STEP, PageOutcome
from sudoku_batch.pipeline.errors import InternalError, Interrupted
from sudoku_batch.pipeline.ingest.sources import PageSource
from sudoku_batch.resume import PreparedBatch, batch_results_path, prepare_batch
from sudoku_batch.store import results, schema_template
from sudoku_batch.store.db import make_engine, make_session_factory
from sudoku_batch.store.models import Batch, Page, PageStatus, Puzzle
from sudoku_batch.store.record import (
    ReadingToRecord,
    SolutionToRecord,
    inputs_label,
    record_boards,
    record_failure,
    record_page_image,
    record_readings,
    record_solutions,
)
from sudoku_batch.store.schema_current import sqlite_is_current
from sudoku_batch.store.storage import OUTPUT_FOLDER, StorageFull, StorageUnavailable, storage_fault


def prepared_batch(
    sessions: sessionmaker[Session],
    inputs: list[str],
    sources: list[PageSource],
    out_dir: Path,
    restart: bool,
) -> PreparedBatch:
    """The batch of ``inputs`` in the output folder's database, new or to go on with."""
    with sessions.begin() as session:
        return prepare_batch(session, inputs_label(inputs), sources, out_dir, restart)


def persisted(sessions, page_id: int, outcome: PageOutcome) -> StorageUnavailable | None:
    """Persist a page's outcome, unless the output folder's fault stopped it or stops its
    writing: that fault, if any."""
    fault = _storage_fault(outcome)
    if fault is not None:
        return fault
    try:
        with sessions.begin() as session:
            _persist(session, page_id, outcome)
    except Exception as error:
        fault = output_storage_fault(error)
        if fault is None:
            raise
    return fault


def _storage_fault(outcome: PageOutcome) -> StorageUnavailable | None:
    """The output folder's fault that stopped a page or one of its boards, if any."""
    errors = [outcome.error, *(board.error for board in outcome.boards)]
    return next((error for error in errors if isinstance(error, StorageUnavailable)), None)


def output_storage_fault(error: Exception) -> StorageUnavailable | None:
    """The storage fault a failed write of the output folder's SQLite database (or of
    results.jsonl) is, if it is one."""
    if isinstance(error, OSError):
        return storage_fault(error, OUTPUT_FOLDER)
    cause = error.orig if isinstance(error, OperationalError) else None
    code = getattr(cause, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL:
        return StorageFull(f"no space left in {OUTPUT_FOLDER}: free some space")
    if code is not None and code & 0xFF in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR):
        return StorageUnavailable(f"{OUTPUT_FOLDER} cannot be written ({cause})")
    return None


def mark_interrupted(session, batch_id: int, fault: StorageUnavailable | None) -> None:
    """Record the batch's pages not done as interrupted, with ``fault`` if it stopped them."""
    message = (
        "the run was stopped before this page was done; run the same command again to finish it"
    )
    if fault is not None:
        message = f"{fault.message}; {message}"
    pending = select(Page.id).where(Page.batch_id == batch_id, Page.status == PageStatus.PENDING)
    for page_id in session.scalars(pending).all():
        record_failure(session, Interrupted(message), PAGE_STEP.stage, page_id=page_id)


def open_database(out_dir: Path) -> tuple[Engine, sessionmaker[Session]]:
    """The SQLite database of an output folder, migrated to the current schema."""
    out_dir.mkdir(parents=True, exist_ok=True)
    database = out_dir / DATABASE_NAME
    database_url = f"sqlite:///{database.resolve()}"
    new = not database.exists()
    if new and schema_template.copy_template(database):
        pass  # an empty database the same migrations made
    elif not sqlite_is_current(database):  # else Alembic has nothing to do
        from sudoku_batch.store.migrate import upgrade

        upgrade(database_url)
        if new:
            schema_template.save_template(database)
    engine = make_engine(database_url)
    return engine, make_session_factory(engine)


def write_results(
    engine: Engine, sessions: sessionmaker[Session], batch_id: int, out_dir: Path
) -> tuple[list[dict], Path]:
    """The batch's result records, read back from the database into ``results-N.jsonl`` and,
    for the folder's newest batch, ``results.jsonl``; and the file that is its own. A batch of
    the folder without its file (run before batches had their own) gets it too, so none is
    lost to a newer one."""
    with sessions() as session:
        records = results.result_records(session, batch_id)
        batches = session.scalars(select(Batch.id).order_by(Batch.id)).all()
        for other in batches:
            path = batch_results_path(out_dir, other)
            if other != batch_id and not path.exists():
                _write_records(results.result_records(session, other), path)
    engine.dispose()
    own = batch_results_path(out_dir, batch_id)
    _write_records(records, own)
    if batch_id != batches[-1]:
        return records, own
    newest = out_dir / RESULTS_NAME
    shutil.copyfile(own, newest)  # the same lines: not serialised twice
    return records, newest


def _write_records(records: list[dict], path: Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for item in records:
            out.write(json.dumps(item) + "\n")


def _persist(session, page_id: int, outcome: PageOutcome) -> None:
    """Record one page's step results through the functions the Celery tasks call, in order."""
    # Nothing below reads back what the ORM holds unsent, so its changes go out once, at the
    # commit, instead of before every statement: one UPDATE of a puzzle instead of two, and no
    # flush to prepare each statement.
    with session.no_autoflush:
        _record_page(session, page_id, outcome)


def _record_page(session, page_id: int, outcome: PageOutcome) -> None:
    if outcome.image is not None:
        record_page_image(session, page_id, *outcome.image)
    if outcome.error is not None or outcome.found is None:
        error = outcome.error or InternalError("the page ended without a result")
        record_failure(session, error, PAGE_STEP.stage, page_id=page_id, seconds=outcome.seconds)
        return
    found = outcome.found
    puzzle_ids = record_boards(
        session,
        page_id,
        found.boards,
        found.image_paths,
        outcome.seconds,
        captions=found.captions,
    )
    # The session holds the puzzles it wrote only weakly: held here, each board's records
    # find its puzzle in the session instead of reading it again.
    _held = session.scalars(select(Puzzle).where(Puzzle.id.in_(puzzle_ids))).all()
    boards = list(zip(puzzle_ids, outcome.boards, strict=True))
    readings = [
        ReadingToRecord(puzzle_id, b.read.recognised, b.read.image_path, b.read.seconds)
        for puzzle_id, b in boards
        if b.read is not None
    ]
    record_readings(session, readings)
    solved = [
        SolutionToRecord(
            puzzle_id, b.solved.solution, b.solved.render_path, b.solved.seconds, b.solved.facts
        )
        for puzzle_id, b in boards
        if b.solved is not None
    ]
    record_solutions(session, solved)
    for puzzle_id, board in boards:
        if board.error is not None and board.error_stage is not None:
            record_failure(
                session,
                board.error,
                board.error_stage,
                puzzle_id=puzzle_id,
                seconds=board.error_seconds,
            )
