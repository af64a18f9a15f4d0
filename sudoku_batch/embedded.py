"""The embedded driver: a whole batch on this machine, no servers.

Pages run on a process pool (``page_pool``: one OCR engine and SAT backend per process, one
ONNX Runtime thread each, since one thread per process beat two here; a worker that dies fails
only its page); an unfinished batch of the same inputs is resumed (``resume``); Ctrl-C stops
cleanly (``interrupt``), and so does an output folder that cannot be written (no space left,
read-only): no page is failed for it, and the same command run again resumes. A lone page is
not queued: it starts in a forked process before the store is even imported (``page_ahead``).
This coordinating process owns the SQLite database and the progress bar, and persists each
page through ``store.record``, the same functions the Celery workers call. ``results.jsonl``
is then read back from the database, so it says exactly what a person querying the tables
would see.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sudoku_batch.collection import collection_paused
from sudoku_batch.engine_files import engine_files
from sudoku_batch.interrupt import stop_requested
from sudoku_batch.page_ahead import PageAhead
from sudoku_batch.page_job import PageJobSettings, PageOutcome
from sudoku_batch.page_pool import run_pages
from sudoku_batch.pipeline.book.bounded_rating import DEFAULT_RATING_SECONDS
from sudoku_batch.pipeline.engine_files import EngineFiles
from sudoku_batch.pipeline.errors import InternalError, Interrupted
from sudoku_batch.pipeline.ingest.limits import DEFAULT_LIMITS, InputLimits
from sudoku_batch.pipeline.ingest.sources import DEFAULT_PDF_DPI, PageSource, expand_inputs
from sudoku_batch.pipeline.recognise.ocr.engines import DEFAULT_ENGINE
from sudoku_batch.pipeline.solve.backends import DEFAULT_BACKEND
from sudoku_batch.pipeline.solve.timeouts import COMMAND_SOLVE_TIMEOUT
from sudoku_batch.store.artifacts import StorageFull, StorageUnavailable

if TYPE_CHECKING:  # SQLAlchemy is imported when used: `run --help` need not load it
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session, sessionmaker
    from tqdm import tqdm

DATABASE_NAME = "sudoku-batch.sqlite"
RUN_AGAIN = "then run the same command again to finish"
RESULTS_NAME = "results.jsonl"


@dataclass(frozen=True)
class EmbeddedOptions:
    out_dir: Path
    jobs: int = 1
    engine: str = DEFAULT_ENGINE
    backend: str = DEFAULT_BACKEND
    solve_timeout: float = COMMAND_SOLVE_TIMEOUT
    rating_seconds: float = DEFAULT_RATING_SECONDS
    dpi: int = DEFAULT_PDF_DPI
    keep_intermediates: bool = False  # also whole pages and the cell interiors read
    progress: bool = True
    restart: bool = False  # start over instead of resuming an unfinished batch of the inputs
    limits: InputLimits = DEFAULT_LIMITS
    engine_files: EngineFiles = field(default_factory=engine_files)

    def job_settings(self) -> PageJobSettings:
        return PageJobSettings(
            dpi=self.dpi,
            solve_timeout=self.solve_timeout,
            rating_seconds=self.rating_seconds,
            out_dir=self.out_dir,
            keep_intermediates=self.keep_intermediates,
            limits=self.limits,
            engine_files=self.engine_files,
        )


@dataclass
class BatchRun:
    """What ``run_batch`` did: the batch's records, and whether it was resumed or stopped."""

    batch_id: int
    records: list[dict]
    resumed: bool = False
    pages_kept: int = 0  # finished pages of a resumed batch, not redone
    pages_done: int = 0  # pages this run processed
    interrupted: bool = False
    # Why the run stopped early, when not by a signal: the output folder could not be written.
    stopped_by: StorageUnavailable | None = None
    results: Path | None = None  # the file holding ``records``


def run_batch(inputs: Iterable[str | Path], options: EmbeddedOptions) -> BatchRun:
    """Process every page of ``inputs`` (resuming an unfinished batch of the same inputs in
    the output folder unless ``options.restart``); the records are also written to
    ``out_dir/results.jsonl``. On SIGINT or SIGTERM, or when the output folder cannot be
    written (``BatchRun.stopped_by``), the pages not done are marked ``interrupted`` and the
    results of the others are still written; if even that cannot be written, the
    ``StorageUnavailable`` is raised (the pages not done stay pending, and are resumed)."""
    inputs = [str(path) for path in inputs]
    # Listed before the database exists: a folder's listing skips the database file anyway.
    sources = list(expand_inputs(inputs, options.limits))
    ahead = _page_ahead(sources, options)
    try:
        return _run_listed(inputs, sources, options, ahead)
    finally:
        if ahead is not None:
            ahead.stop()  # if still running: an error or Ctrl-C came before its outcome


def _run_listed(
    inputs: list[str], sources: list[PageSource], options: EmbeddedOptions, ahead: PageAhead | None
) -> BatchRun:
    with collection_paused():  # the store's imports and the ORM's set-up
        from sudoku_batch.resume import prepare_batch
        from sudoku_batch.store.record import inputs_label

        engine, sessions = open_database(options.out_dir)
        with sessions.begin() as session:
            prepared = prepare_batch(
                session, inputs_label(inputs), sources, options.out_dir, options.restart
            )
    run = BatchRun(prepared.batch_id, [], prepared.resumed, prepared.pages_kept)
    bar = _progress_bar(len(prepared.todo)) if options.progress and prepared.todo else None
    with stop_requested() as stopping:
        outcomes = ahead.outcomes(prepared.todo, stopping) if ahead is not None else None
        if not prepared.todo:  # a finished batch run again: nothing to start
            outcomes = []
        elif outcomes is None:
            outcomes = run_pages(
                prepared.todo,
                min(options.jobs, len(prepared.todo)),  # no idle processes for a short batch
                options.engine,
                options.backend,
                options.job_settings(),
                stopping,
            )
        for page, outcome in outcomes:
            run.stopped_by = _persisted(sessions, page.page_id, outcome, options.out_dir)
            if run.stopped_by is not None:
                _close(outcomes)  # pages running are stopped and stay unfinished
                break
            run.pages_done += 1
            if bar is not None:
                bar.update(1)
    if bar is not None:
        bar.close()
    run.interrupted = stopping() or run.stopped_by is not None
    try:
        if run.interrupted:
            with sessions.begin() as session:
                _mark_interrupted(session, prepared.batch_id, run.stopped_by)
        run.records, run.results = write_results(
            engine, sessions, prepared.batch_id, options.out_dir
        )
    except Exception as error:
        fault = run.stopped_by or output_storage_fault(error, options.out_dir)
        if fault is None:
            raise
        raise type(fault)(f"{fault.message}; {RUN_AGAIN}") from error
    return run


def _persisted(
    sessions, page_id: int, outcome: PageOutcome, out_dir: Path
) -> StorageUnavailable | None:
    """Persist a page's outcome, unless the output folder's fault stopped it or stops its
    writing: that fault, if any."""
    fault = _storage_fault(outcome)
    if fault is not None:
        return fault
    try:
        with sessions.begin() as session:
            _persist(session, page_id, outcome)
    except Exception as error:
        fault = output_storage_fault(error, out_dir)
        if fault is None:
            raise
    return fault


def _storage_fault(outcome: PageOutcome) -> StorageUnavailable | None:
    """The output folder's fault that stopped a page or one of its boards, if any."""
    errors = [outcome.error, *(board.error for board in outcome.boards)]
    return next((error for error in errors if isinstance(error, StorageUnavailable)), None)


def output_storage_fault(error: Exception, out_dir: Path) -> StorageUnavailable | None:
    """The storage fault a failed write of the output folder's SQLite database (or of
    results.jsonl) is, if it is one."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    from sudoku_batch.store.artifacts import storage_fault

    if isinstance(error, OSError):
        return storage_fault(error, out_dir)
    cause = error.orig if isinstance(error, OperationalError) else None
    code = getattr(cause, "sqlite_errorcode", None)
    if code == sqlite3.SQLITE_FULL:
        return StorageFull(f"no space left in the output folder {out_dir}: free some space")
    if code is not None and code & 0xFF in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR):
        return StorageUnavailable(f"the output folder {out_dir} cannot be written ({cause})")
    return None


def _close(outcomes: Iterable) -> None:
    close = getattr(outcomes, "close", None)
    if close is not None:
        close()


def _page_ahead(sources: list[PageSource], options: EmbeddedOptions) -> PageAhead | None:
    """A lone page is started at once, beside the store's start-up (``page_ahead``); more
    pages wait for their rows and run on the pool as before."""
    if len(sources) != 1 or sources[0].refused:
        return None
    if (options.out_dir / DATABASE_NAME).exists():  # the page may be done already
        return None
    try:
        return PageAhead(sources[0], options.engine, options.backend, options.job_settings())
    except OSError:  # no process to spare: the page runs after its rows, as before
        return None


def _progress_bar(pages: int) -> tqdm:
    from tqdm import tqdm  # and multiprocessing, for its lock: 30 CPU-ms, only if shown

    return tqdm(total=pages, unit="page", smoothing=0.1)


def _mark_interrupted(session, batch_id: int, fault: StorageUnavailable | None) -> None:
    from sqlalchemy import select

    from sudoku_batch.store.models import Page, PageStatus
    from sudoku_batch.store.record import Stage, record_failure

    message = (
        "the run was stopped before this page was done; run the same command again to finish it"
    )
    if fault is not None:
        message = f"{fault.message}; {message}"
    pending = select(Page.id).where(Page.batch_id == batch_id, Page.status == PageStatus.PENDING)
    for page_id in session.scalars(pending).all():
        record_failure(session, Interrupted(message), Stage.RECTIFY, page_id=page_id)


def open_database(out_dir: Path) -> tuple[Engine, sessionmaker[Session]]:
    """The SQLite database of an output folder, migrated to the current schema."""
    from sudoku_batch.store import schema_template
    from sudoku_batch.store.db import make_engine, make_session_factory
    from sudoku_batch.store.schema_current import sqlite_is_current

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
    from sqlalchemy import select

    from sudoku_batch.resume import batch_results_path
    from sudoku_batch.store import results
    from sudoku_batch.store.models import Batch

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
    # flush to prepare each statement (20-page book: 15.0 -> 12.9 statements, 6.1 -> 5.1
    # CPU-ms a grid, with the read below).
    with session.no_autoflush:
        _record_page(session, page_id, outcome)


def _record_page(session, page_id: int, outcome: PageOutcome) -> None:
    from sqlalchemy import select

    from sudoku_batch.store.models import Puzzle
    from sudoku_batch.store.record import (
        ReadingToRecord,
        SolutionToRecord,
        Stage,
        record_boards,
        record_failure,
        record_page_image,
        record_readings,
        record_solutions,
    )

    if outcome.image is not None:
        record_page_image(session, page_id, *outcome.image)
    if outcome.error is not None or outcome.found is None:
        error = outcome.error or InternalError("the page ended without a result")
        record_failure(session, error, Stage.RECTIFY, page_id=page_id, seconds=outcome.seconds)
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
