"""A one-page run's page, started in a forked process before its rows exist.

The page's steps need no database, and the store's side of a one-photo ``run`` (importing
SQLAlchemy and the models, opening the database, creating the batch's rows) is a large part
of its CPU time: on a second core the two run side by side. The page runs as a pool worker
would run it (``process_page``, then its outcome pickled back), under a provisional
``PageRef`` whose id no row has (SQLite's ids start at 1); once the rows exist, this process
renames the page's files to the names its real ids give (``PageRef.stem``) and records the
outcome as for any other page, so the rows and the files are those of a page run after them.

It is forked before this process has imported SQLAlchemy, opened the database, started the
progress bar's thread or used OpenCV (whose thread pool a child could not use), and the child
leaves with ``os._exit``, so nothing of the parent's is flushed or closed twice.
"""

from __future__ import annotations

import os
import pickle
import select
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

from sudoku_batch import startup
from sudoku_batch.page_job import (
    PAGE_STEP,
    PageJobSettings,
    PageOutcome,
    process_page,
    without_pixels,
)
from sudoku_batch.page_pool import POLL_SECONDS, crash_message, make_engines
from sudoku_batch.pipeline.errors import InternalError, WorkerCrashed
from sudoku_batch.pipeline.ingest.sources import PageSource
from sudoku_batch.store.artifacts import PageRef

PROVISIONAL_ID = 0  # no row has it: the page's files are named by it until its row exists


class PageAhead:
    """The one page of ``source``, being processed in a forked process."""

    def __init__(
        self, source: PageSource, engine: str, backend: str, settings: PageJobSettings
    ) -> None:
        self.source = source
        self.out_dir = settings.out_dir
        self.provisional = PageRef(PROVISIONAL_ID, PROVISIONAL_ID, source.source, source.page)
        read_end, write_end = os.pipe()
        try:
            self.pid: int | None = startup.fork_frozen()
        except OSError:  # no process to spare
            os.close(read_end)
            os.close(write_end)
            raise
        if self.pid == 0:
            os.close(read_end)
            _run_child(write_end, source, self.provisional, engine, backend, settings)
        os.close(write_end)
        self.read_end = read_end

    def outcomes(
        self, todo: list[tuple[PageSource, PageRef]], stopping: Callable[[], bool]
    ) -> Iterator[tuple[PageRef, PageOutcome]] | None:
        """What ``run_pages`` would yield for ``todo``, if ``todo`` is this page; else None,
        and the page is stopped (its files deleted)."""
        if len(todo) != 1 or todo[0][0] != self.source:
            self.stop()
            return None
        return self._outcome(todo[0][1], stopping)

    def _outcome(
        self, page: PageRef, stopping: Callable[[], bool]
    ) -> Iterator[tuple[PageRef, PageOutcome]]:
        received = bytearray()
        while True:  # until the child closes its end, or a stop is asked for
            if stopping():
                self.stop()  # the page stays unfinished, as in a pool
                return
            readable, _, _ = select.select([self.read_end], [], [], POLL_SECONDS)
            if readable:
                chunk = os.read(self.read_end, 1 << 20)
                if not chunk:
                    break
                received += chunk
        status = self._reap()
        try:
            result = pickle.loads(received)
        except Exception:  # noqa: BLE001 - cut short: the child died before it was done
            _delete_files(self.out_dir, self.provisional)
            yield page, PageOutcome(error=WorkerCrashed(crash_message(page, _exit_code(status))))
            return
        if isinstance(result, Exception):
            _delete_files(self.out_dir, self.provisional)
            raise result  # the engines could not start: as in this process
        yield page, _renamed(result, self.out_dir, self.provisional, page)

    def stop(self) -> None:
        """End the child if it still runs, and delete what it wrote."""
        if self.pid is None:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self._reap()
        _delete_files(self.out_dir, self.provisional)

    def _reap(self) -> int:
        assert self.pid is not None
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        os.close(self.read_end)
        return status


def _run_child(
    write_end: int,
    source: PageSource,
    page: PageRef,
    engine: str,
    backend: str,
    settings: PageJobSettings,
) -> None:
    """The forked process: the page's outcome, or the error that kept the engines from
    starting, pickled to ``write_end``. Never returns."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
        try:
            engines = make_engines(engine, backend, settings.engine_files)
        except Exception as error:  # noqa: BLE001 - raised in the parent instead
            result: PageOutcome | Exception = error
        else:
            result = without_pixels(process_page(source, page, engines, settings))
        try:
            payload = pickle.dumps(result)
        except Exception as error:  # noqa: BLE001 - as the pool's result that cannot be pickled
            failed = PageOutcome(error=InternalError.wrapping(error, PAGE_STEP.stage))
            payload = pickle.dumps(failed)
        with os.fdopen(write_end, "wb") as out:
            out.write(payload)
    finally:
        os._exit(0)


def _exit_code(status: int) -> int | None:
    """A wait status as ``multiprocessing`` gives it: the exit code, or minus the signal."""
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else None


def _made(out_dir: Path, page: PageRef) -> Iterator[Path]:
    """The files and folders written for ``page``: ``<folder>/<stem>.jpg``,
    ``<folder>/<stem>-g<index>...`` (``store.artifacts.Artifacts``). Any folder: the
    provisional stem is no other page's, and nothing is imported to clean up after Ctrl-C."""
    return out_dir.glob(f"*/{page.stem}[-.]*")


def _delete_files(out_dir: Path, page: PageRef) -> None:
    for made in _made(out_dir, page):
        if made.is_dir():
            shutil.rmtree(made, ignore_errors=True)
        else:
            made.unlink(missing_ok=True)


def _renamed(outcome: PageOutcome, out_dir: Path, old: PageRef, new: PageRef) -> PageOutcome:
    """``outcome``, its files and the paths it holds renamed from ``old``'s names to
    ``new``'s."""
    for made in list(_made(out_dir, old)):
        made.rename(made.with_name(new.stem + made.name[len(old.stem) :]))

    def path(relative: str) -> str:
        folder, _, name = relative.rpartition("/")
        return f"{folder}/{new.stem}{name.removeprefix(old.stem)}"

    if outcome.image is not None and outcome.image[0] is not None:
        outcome.image = (path(outcome.image[0]), *outcome.image[1:])
    if outcome.found is not None:
        outcome.found.image_paths = [path(stored) for stored in outcome.found.image_paths]
    for board in outcome.boards:
        if board.read is not None:
            board.read.image_path = path(board.read.image_path)
        if board.solved is not None and board.solved.render_path is not None:
            board.solved.render_path = path(board.solved.render_path)
    return outcome
