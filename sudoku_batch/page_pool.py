"""Pages on a pool of processes that survives its own workers.

A pebble ``ProcessPool`` runs one page per task: a worker killed mid-page (the OOM killer, a
crash in native code) fails that task alone with ``ProcessExpired``, and pebble starts a new
worker, where ``concurrent.futures`` would break the whole pool and every page queued on it.
At most a few pages per worker are queued at once, so a 10 000-page batch never holds 10 000
futures, and each result is handed on (and dropped) as it arrives. Workers ignore Ctrl-C:
the coordinating process decides when to stop and stops them.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass

from sudoku_batch.page_job import (
    PAGE_STEP,
    Engines,
    PageJobSettings,
    PageOutcome,
    process_page,
    without_pixels,
)
from sudoku_batch.pipeline.engine_files import EngineFiles
from sudoku_batch.pipeline.errors import (
    EngineUnavailable,
    InternalError,
    SudokuBatchError,
    WorkerCrashed,
)
from sudoku_batch.pipeline.ingest.sources import PageSource
from sudoku_batch.pipeline.recognise.ocr.engines import make_engine
from sudoku_batch.pipeline.recognise.printed_captions import caption_reader
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.settings.environment import set_library_defaults
from sudoku_batch.store.artifacts import PageRef

QUEUED_PER_WORKER = 2  # enough that no worker waits for the next page
POLL_SECONDS = 0.2  # how soon a stop request is seen while pages run

Work = tuple[PageSource, PageRef]


def run_pages(
    work: Iterable[Work],
    jobs: int,
    engine: str,
    backend: str,
    settings: PageJobSettings,
    stopping: Callable[[], bool],
) -> Iterator[tuple[PageRef, PageOutcome]]:
    """(page, outcome) per page, in completion order, until the work is done or ``stopping()``
    answers true (pages not yet started are then left alone)."""
    if jobs <= 1:
        yield from _in_process(work, engine, backend, settings, stopping)
        return
    import multiprocessing

    from pebble import ProcessPool  # an import a one-page run does without

    # spawn, not fork: the parent holds an open SQLite connection and a tqdm thread.
    context = multiprocessing.get_context("spawn")
    pool = ProcessPool(
        max_workers=jobs,
        initializer=_start_worker_process,
        initargs=(engine, backend, settings),
        context=context,
    )
    queued: dict[Future, PageRef] = {}
    todo = iter(work)
    try:
        while True:
            while not stopping() and len(queued) < jobs * QUEUED_PER_WORKER:
                item = next(todo, None)
                if item is None:
                    break
                queued[pool.submit(_process_in_worker, None, *item)] = item[1]
            if not queued or stopping():
                return
            done, _ = wait(queued, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                page = queued.pop(future)
                yield page, _outcome(future, page)
    finally:
        pool.stop()  # workers still on a page are terminated: their pages stay unfinished
        pool.join()


def _outcome(future: Future, page: PageRef) -> PageOutcome:
    from pebble import ProcessExpired

    try:
        return future.result()
    except ProcessExpired as error:
        return PageOutcome(error=WorkerCrashed(crash_message(page, error.exitcode)))
    except SudokuBatchError as error:
        return PageOutcome(error=error)
    except Exception as error:  # noqa: BLE001 - e.g. a result that cannot be pickled
        return PageOutcome(error=InternalError.wrapping(error, PAGE_STEP.stage))


def crash_message(page: PageRef, exitcode: int | None) -> str:
    how = f"exit code {exitcode}"
    if exitcode is not None and exitcode < 0:
        how = f"killed by {signal.Signals(-exitcode).name}"
    return (
        f"{page.source} page {page.page}: the process working on this page died ({how}; out of "
        "memory?); the other pages went on. Run it alone to see whether it happens again"
    )


def _in_process(
    work: Iterable[Work],
    engine: str,
    backend: str,
    settings: PageJobSettings,
    stopping: Callable[[], bool],
) -> Iterator[tuple[PageRef, PageOutcome]]:
    engines = make_engines(engine, backend, settings.engine_files)
    for source, page in work:
        if stopping():
            return
        yield page, process_page(source, page, engines, settings)


def make_engines(engine: str, backend: str, files: EngineFiles) -> Engines:
    """What ``process_page`` reads and solves with, from ``files``; the OCR models' optimised
    graphs are kept in ``files.cache_dir`` for the next run."""
    return Engines(
        make_engine(engine, files=files),
        make_backend(backend, files.kissat),
        caption_reader(files),
    )


@dataclass(frozen=True)
class PoolProcess:
    """A pool process's state, made once by the initializer: loading the OCR model per page
    would cost more than reading the page."""

    settings: PageJobSettings
    engines: Engines | None
    error: SudokuBatchError | None  # why the engines could not start: each page fails with it


_process: PoolProcess | None = None  # set in each pool process by _start_worker_process


def _start_worker_process(engine: str, backend: str, settings: PageJobSettings) -> None:
    global _process
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group
    set_library_defaults()
    try:
        _process = PoolProcess(settings, make_engines(engine, backend, settings.engine_files), None)
    except SudokuBatchError as error:
        # Raised per page instead: an initializer that raises would be restarted forever.
        _process = PoolProcess(settings, None, error)
    except Exception as error:  # noqa: BLE001
        failure = EngineUnavailable(f"the engines could not start: {error}")
        _process = PoolProcess(settings, None, failure)


def _process_in_worker(source: PageSource, page: PageRef) -> PageOutcome:
    assert _process is not None  # the initializer ran
    if _process.engines is None:
        return PageOutcome(error=_process.error)
    return without_pixels(process_page(source, page, _process.engines, _process.settings))
