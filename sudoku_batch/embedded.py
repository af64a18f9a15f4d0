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

from tqdm import tqdm

from pipeline.ingest.sources import PageSource, expand_inputs
from pipeline.recognise.ocr.base import OcrEngine
from pipeline.recognise.ocr.engines import DEFAULT_ENGINE, make_engine
from pipeline.solve.backend import SatBackend
from pipeline.solve.backends import DEFAULT_BACKEND, make_backend
from sudoku_batch.page_job import PageJobSettings, PageOutcome, process_page

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
    keep_intermediates: bool = False
    progress: bool = True

    def job_settings(self) -> PageJobSettings:
        return PageJobSettings(
            dpi=self.dpi,
            solve_timeout=self.solve_timeout,
            out_dir=self.out_dir,
            keep_intermediates=self.keep_intermediates,
        )


def run_batch(inputs: Iterable[str | Path], options: EmbeddedOptions) -> list[dict]:
    """Process every page of ``inputs``; returns the result records also written to
    ``out_dir/results.jsonl``."""
    from store import record, results
    from store.db import make_engine, make_session_factory
    from store.migrate import upgrade

    inputs = [str(path) for path in inputs]
    options.out_dir.mkdir(parents=True, exist_ok=True)
    database_url = f"sqlite:///{(options.out_dir / DATABASE_NAME).resolve()}"
    upgrade(database_url)
    engine = make_engine(database_url)
    sessions = make_session_factory(engine)

    sources = list(expand_inputs(inputs))
    with sessions.begin() as session:
        batch_id = record.create_batch(session, label=", ".join(inputs))
        page_ids = _add_pages(session, batch_id, sources)

    bar = tqdm(total=len(sources), unit="page", disable=not options.progress, smoothing=0.1)
    for sequence, outcome in _outcomes(sources, options):
        with sessions.begin() as session:
            _persist(session, page_ids[sequence], outcome)
        bar.update(1)
    bar.close()

    with sessions() as session:
        records = results.result_records(session, batch_id)
    engine.dispose()
    with open(options.out_dir / RESULTS_NAME, "w", encoding="utf-8") as out:
        for item in records:
            out.write(json.dumps(item) + "\n")
    return records


def _add_pages(session, batch_id: int, sources: list[PageSource]) -> list[int]:
    """Input-file and page rows, as the ingest task writes them; page ids in source order."""
    from store import record

    page_ids: list[int] = []
    for path, file_sources in groupby(sources, key=lambda source: source.path):
        file_sources = list(file_sources)
        input_file_id = record.add_input_file(
            session, batch_id, name=_file_label(file_sources[0]), stored_path=path
        )
        page_ids += record.add_pages(session, input_file_id, file_sources, seconds=0.0)
    return page_ids


def _file_label(source: PageSource) -> str:
    """The user's name for the file holding a page: ``scans.zip`` for ``scans.zip/p1.png``."""
    if source.member:
        return source.source[: -len(source.member) - 1]
    return source.source


def _persist(session, page_id: int, outcome: PageOutcome) -> None:
    """Record one page's outcome through the functions the Celery tasks call, stage by stage."""
    from store.record import Stage, record_boards, record_failure, record_reading, record_solution

    # As in the Celery driver, the rectify stage loads (or rasterises) its page itself.
    page_seconds = sum(outcome.seconds.values())
    if outcome.error is not None:
        record_failure(session, outcome.error, Stage.RECTIFY, page_id=page_id, seconds=page_seconds)
        return
    boards = [puzzle.board for puzzle in outcome.puzzles]
    puzzle_ids = record_boards(
        session,
        page_id,
        boards,
        cells=[[] for _ in boards],
        board_image_paths=[""] * len(boards),
        seconds=page_seconds,
    )
    for puzzle_id, puzzle in zip(puzzle_ids, outcome.puzzles, strict=True):
        if puzzle.recognised is not None:
            record_reading(
                session,
                puzzle_id,
                puzzle.recognised,
                puzzle.board_image_path or "",
                seconds=puzzle.seconds["ocr"],
            )
        if puzzle.solution is not None:
            record_solution(
                session,
                puzzle_id,
                puzzle.solution,
                puzzle.render_path,
                seconds=puzzle.seconds["solve"] + puzzle.seconds.get("render", 0.0),
            )
        if puzzle.error is not None:
            record_failure(
                session,
                puzzle.error,
                Stage(puzzle.error_stage),
                puzzle_id=puzzle_id,
                seconds=puzzle.seconds.get(puzzle.error_stage, 0.0),
            )


def summarise(records: list[dict]) -> str:
    counts = Counter(item["status"] for item in records)
    pages = len({(item["source"], item["page"]) for item in records})
    parts = ", ".join(f"{n} {status}" for status, n in counts.most_common())
    grids = sum(n for status, n in counts.items() if status != "no_grid")
    return f"{grids} grid(s) on {pages} page(s): {parts or 'nothing found'}"


def _outcomes(
    sources: list[PageSource], options: EmbeddedOptions
) -> Iterator[tuple[int, PageOutcome]]:
    """(sequence, outcome) per page, in completion order."""
    settings = options.job_settings()
    if options.jobs == 1 or len(sources) <= 1:
        engine, backend = _make_engines(options.engine, options.backend)
        for sequence, source in enumerate(sources):
            yield sequence, process_page(source, sequence, engine, backend, settings)
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
            pool.submit(_process_in_worker, source, sequence): sequence
            for sequence, source in enumerate(sources)
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


def _process_in_worker(source: PageSource, sequence: int) -> PageOutcome:
    return process_page(
        source,
        sequence,
        _worker_state["engine"],  # type: ignore[arg-type]
        _worker_state["backend"],  # type: ignore[arg-type]
        _worker_state["settings"],  # type: ignore[arg-type]
    )
