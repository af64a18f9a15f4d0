"""The embedded driver: a whole batch on this machine, no servers.

Pages run on a process pool (one OCR engine and SAT backend per process, one ONNX Runtime
thread each, since one thread per process beat two here); this coordinating process owns the
SQLite database and the progress bar, and persists each page through ``store.record``, the same
functions the Celery workers call. ``results.jsonl`` is then read back from the database, so it
says exactly what a person querying the tables would see.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from pipeline.errors import InternalError
from pipeline.ingest.sources import PageSource, expand_inputs
from pipeline.recognise.ocr.base import OcrEngine
from pipeline.recognise.ocr.engines import DEFAULT_ENGINE, make_engine
from pipeline.solve.backend import SatBackend
from pipeline.solve.backends import DEFAULT_BACKEND, make_backend
from store.artifacts import PageRef
from sudoku_batch.page_job import PageJobSettings, PageOutcome, process_page

if TYPE_CHECKING:  # SQLAlchemy is imported when used: `run --help` need not load it
    from sqlalchemy import Engine
    from sqlalchemy.orm import Session, sessionmaker

DATABASE_NAME = "sudoku-batch.sqlite"
RESULTS_NAME = "results.jsonl"


@dataclass(frozen=True)
class EmbeddedOptions:
    out_dir: Path
    jobs: int = 1
    engine: str = DEFAULT_ENGINE
    backend: str = DEFAULT_BACKEND
    solve_timeout: float = 10.0
    dpi: int = 200
    keep_intermediates: bool = False  # also the cell interiors the recogniser read
    progress: bool = True

    def job_settings(self) -> PageJobSettings:
        return PageJobSettings(
            dpi=self.dpi,
            solve_timeout=self.solve_timeout,
            out_dir=self.out_dir,
            keep_cell_images=self.keep_intermediates,
        )


def run_batch(inputs: Iterable[str | Path], options: EmbeddedOptions) -> list[dict]:
    """Process every page of ``inputs``; returns the result records also written to
    ``out_dir/results.jsonl``."""
    from store import record

    inputs = [str(path) for path in inputs]
    engine, sessions = open_database(options.out_dir)
    sources = list(expand_inputs(inputs))
    with sessions.begin() as session:
        batch_id = record.create_batch(session, label=", ".join(inputs))
        pages = _add_pages(session, batch_id, sources)

    bar = tqdm(total=len(sources), unit="page", disable=not options.progress, smoothing=0.1)
    for page, outcome in _outcomes(sources, pages, options):
        with sessions.begin() as session:
            _persist(session, page.page_id, outcome)
        bar.update(1)
    bar.close()

    return write_results(engine, sessions, batch_id, options.out_dir)


def open_database(out_dir: Path) -> tuple[Engine, sessionmaker[Session]]:
    """The SQLite database of an output folder, migrated to the current schema."""
    from store.db import make_engine, make_session_factory
    from store.migrate import upgrade

    out_dir.mkdir(parents=True, exist_ok=True)
    database_url = f"sqlite:///{(out_dir / DATABASE_NAME).resolve()}"
    upgrade(database_url)
    engine = make_engine(database_url)
    return engine, make_session_factory(engine)


def write_results(
    engine: Engine, sessions: sessionmaker[Session], batch_id: int, out_dir: Path
) -> list[dict]:
    """The batch's result records, read back from the database into results.jsonl."""
    from store import results

    with sessions() as session:
        records = results.result_records(session, batch_id)
    engine.dispose()
    with open(out_dir / RESULTS_NAME, "w", encoding="utf-8") as out:
        for item in records:
            out.write(json.dumps(item) + "\n")
    return records


def _add_pages(session, batch_id: int, sources: list[PageSource]) -> list[PageRef]:
    """Input-file and page rows, as the ingest task writes them; the pages in source order."""
    from store import record

    pages: list[PageRef] = []
    for path, file_sources in groupby(sources, key=lambda source: source.path):
        file_sources = list(file_sources)
        input_file_id = record.add_input_file(
            session, batch_id, name=_file_label(file_sources[0]), stored_path=path
        )
        page_ids = record.add_pages(session, input_file_id, file_sources, seconds=0.0)
        pages += [
            PageRef(batch_id, page_id, source.source, source.page)
            for page_id, source in zip(page_ids, file_sources, strict=True)
        ]
    return pages


def _file_label(source: PageSource) -> str:
    """The user's name for the file holding a page: ``scans.zip`` for ``scans.zip/p1.png``."""
    if source.member:
        return source.source[: -len(source.member) - 1]
    return source.source


def _persist(session, page_id: int, outcome: PageOutcome) -> None:
    """Record one page's step results through the functions the Celery tasks call, in order."""
    from store.record import (
        Stage,
        record_boards,
        record_failure,
        record_page_image,
        record_reading,
        record_solution,
    )

    if outcome.image is not None:
        record_page_image(session, page_id, *outcome.image)
    if outcome.error is not None or outcome.found is None:
        error = outcome.error or InternalError("the page ended without a result")
        record_failure(session, error, Stage.RECTIFY, page_id=page_id, seconds=outcome.seconds)
        return
    found = outcome.found
    puzzle_ids = record_boards(session, page_id, found.boards, found.image_paths, outcome.seconds)
    for puzzle_id, board in zip(puzzle_ids, outcome.boards, strict=True):
        if board.read is not None:
            record_reading(
                session, puzzle_id, board.read.recognised, board.read.image_path, board.read.seconds
            )
        if board.solved is not None:
            record_solution(
                session,
                puzzle_id,
                board.solved.solution,
                board.solved.render_path,
                board.solved.seconds,
            )
        if board.error is not None and board.error_stage is not None:
            record_failure(
                session,
                board.error,
                board.error_stage,
                puzzle_id=puzzle_id,
                seconds=board.error_seconds,
            )


def summarise(records: list[dict]) -> str:
    counts = Counter(item["status"] for item in records)
    pages = len({(item["source"], item["page"]) for item in records})
    parts = ", ".join(f"{n} {status}" for status, n in counts.most_common())
    grids = sum(n for status, n in counts.items() if status != "no_grid")
    return f"{grids} grid(s) on {pages} page(s): {parts or 'nothing found'}"


def _outcomes(
    sources: list[PageSource], pages: list[PageRef], options: EmbeddedOptions
) -> Iterator[tuple[PageRef, PageOutcome]]:
    """(page, outcome) per page, in completion order."""
    settings = options.job_settings()
    if options.jobs == 1 or len(sources) <= 1:
        engine, backend = _make_engines(options.engine, options.backend)
        for source, page in zip(sources, pages, strict=True):
            yield page, process_page(source, page, engine, backend, settings)
        return
    # spawn, not fork: the parent holds an open SQLite connection and a tqdm thread.
    context = multiprocessing.get_context("spawn")
    workers = min(options.jobs, len(sources))
    with ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=_start_worker_process,
        initargs=(options.engine, options.backend, settings),
    ) as pool:
        futures = {
            pool.submit(_process_in_worker, source, page): page
            for source, page in zip(sources, pages, strict=True)
        }
        for future in as_completed(futures):
            yield futures[future], future.result()


def _make_engines(engine: str, backend: str) -> tuple[OcrEngine, SatBackend]:
    return make_engine(engine), make_backend(backend)


# The engines of one pool process, made once by the initializer: loading the OCR model per
# page would cost more than reading the page.
_worker_state: dict[str, object] = {}


def _start_worker_process(engine: str, backend: str, settings: PageJobSettings) -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    _worker_state["engine"], _worker_state["backend"] = _make_engines(engine, backend)
    _worker_state["settings"] = settings


def _process_in_worker(source: PageSource, page: PageRef) -> PageOutcome:
    return process_page(
        source,
        page,
        _worker_state["engine"],  # type: ignore[arg-type]
        _worker_state["backend"],  # type: ignore[arg-type]
        _worker_state["settings"],  # type: ignore[arg-type]
    )
