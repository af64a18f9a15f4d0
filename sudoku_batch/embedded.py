"""The embedded driver: a whole batch on this machine, no servers.

Pages run on a process pool (``page_pool``: one OCR engine and SAT backend per process, one
ONNX Runtime thread each, since processes scale better than threads; a worker that dies fails
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

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sudoku_batch import startup
from sudoku_batch.engine_files import engine_files
from sudoku_batch.interrupt import stop_requested
from sudoku_batch.page_ahead import PageAhead
from sudoku_batch.page_job import PageJobSettings
from sudoku_batch.page_pool import run_pages
from sudoku_batch.pipeline.book.bounded_rating import DEFAULT_RATING_SECONDS
from sudoku_batch.pipeline.certify import CertifyPolicy
from sudoku_batch.pipeline.engine_files import EngineFiles
from sudoku_batch.pipeline.ingest.limits import DEFAULT_LIMITS, InputLimits
from sudoku_batch.pipeline.ingest.sources import DEFAULT_PDF_DPI, PageSource, expand_inputs
from sudoku_batch.pipeline.recognise.ocr.engines import DEFAULT_ENGINE
from sudoku_batch.pipeline.solve.backends import DEFAULT_BACKEND
from sudoku_batch.pipeline.solve.timeouts import COMMAND_SOLVE_TIMEOUT
from sudoku_batch.store.storage import StorageUnavailable

if TYPE_CHECKING:
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
    certify_policy: CertifyPolicy = CertifyPolicy()
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
            certify_policy=self.certify_policy,
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
    with startup.collection_paused():  # the store's imports and the ORM's set-up
        from sudoku_batch import embedded_store as stored

        engine, sessions = stored.open_database(options.out_dir)
        prepared = stored.prepared_batch(
            sessions, inputs, sources, options.out_dir, options.restart
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
            run.stopped_by = stored.persisted(sessions, page.page_id, outcome)
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
                stored.mark_interrupted(session, prepared.batch_id, run.stopped_by)
        run.records, run.results = stored.write_results(
            engine, sessions, prepared.batch_id, options.out_dir
        )
    except Exception as error:
        fault = run.stopped_by or stored.output_storage_fault(error)
        if fault is None:
            raise
        raise type(fault)(f"{fault.message}; {RUN_AGAIN}") from error
    return run


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
    from tqdm import tqdm  # and multiprocessing, for its lock: only if shown

    return tqdm(total=pages, unit="page", smoothing=0.1)
