"""One job path: the same inputs through the embedded runner (SQLite) and through real Celery
workers (Redis, PostgreSQL) leave the same rows, field by field, but for ids, timestamps,
timings, workers and where files are stored.

Inputs: a photo, a two-page PDF (a 6x6 page and a 9x9 page) and a text file of puzzles (one
solved, one with two solutions, one that clashes, one line that is no puzzle).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from sudoku_batch.embedded import DATABASE_NAME, EmbeddedOptions, run_batch
from sudoku_batch.embedded_text import run_text_batch
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory
from sudoku_batch.store.models import Batch, Cell, InputFile, Page, Puzzle, Solution, StageRun
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.pdf import write_jpeg_pdf
from sudoku_batch.synth.unique import unique_puzzle
from tests.conftest import REPO_ROOT
from tests.integration.conftest import (
    Service,
    api_client,
    celery_argv,
    settings_env,
    wait_until,
)

pytestmark = pytest.mark.services

BATCH_LIMIT = 180.0  # a bound against a hang, not an expectation
TEXT_PUZZLES = "\n".join(
    [
        "# solved, two solutions, clashing givens, not a puzzle",
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "." * 81,
        "55" + "." * 79,
        "12345",
    ]
)


def page_with(shape: GridShape, seed: int, givens: int) -> np.ndarray:
    generated = unique_puzzle(shape, np.random.default_rng(seed), givens=givens)
    grid = render_grid(generated.puzzle, cell_px=56, rng=np.random.default_rng(seed)).image
    page = np.full((1400, 1000, 3), 255, np.uint8)
    page[150 : 150 + grid.shape[0], 120 : 120 + grid.shape[1]] = grid
    return page


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("same-inputs")
    (folder / "photo.jpg").write_bytes((REPO_ROOT / "examples" / "photo.jpg").read_bytes())
    pages = [page_with(GridShape(2, 3), 11, 14), page_with(GridShape(3, 3), 12, 30)]
    jpegs = [
        (cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes(), 1000, 1400)
        for page in pages
    ]
    write_jpeg_pdf(folder / "book.pdf", jpegs, dpi=150)
    (folder / "puzzles.txt").write_text(TEXT_PUZZLES, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def server(make_settings: Callable[[str], Settings], tmp_path_factory) -> Iterator[Settings]:
    settings = make_settings("same-rows")
    env = {**settings_env(settings), "OMP_NUM_THREADS": "1"}
    worker = Service(
        "worker",
        celery_argv(
            "worker",
            "--pool=solo",
            "--queues=ingest,rectify,ocr,solve",
            "--hostname=same-rows@localhost",
            "--without-mingle",
            "--without-gossip",
        ),
        env,
        tmp_path_factory.mktemp("same-rows-logs"),
    )
    try:
        yield settings
    finally:
        worker.stop()


def submit(settings: Settings, endpoint: str, files: list[Path]) -> int:
    """The batch's row id, once it finished."""
    with api_client(settings) as api:
        answer = api.post(
            endpoint, files=[("files", (path.name, path.read_bytes())) for path in files]
        )
        assert answer.status_code == 201, answer.text
        batch_id = answer.json()["batch_id"]
        wait_until(
            lambda: api.get(f"/batches/{batch_id}").json()["finished"],
            BATCH_LIMIT,
            f"batch {batch_id} to finish",
            1.0,
        )
    engine = make_engine(settings.database_url)
    try:
        with make_session_factory(engine)() as db:
            return db.scalars(select(Batch.id).where(Batch.public_id == batch_id)).one()
    finally:
        engine.dispose()


def rows(sessions: sessionmaker[Session], batch_id: int) -> dict[str, Any]:
    """Every row of a batch, keyed by what it is (file name, page, board, cell) rather than by
    id, with the fields that must agree between drivers."""
    with sessions() as db:
        input_files = list(db.scalars(select(InputFile).where(InputFile.batch_id == batch_id)))
        files = {f.id: f.name for f in input_files}
        pages = {p.id: p for p in db.scalars(select(Page).where(Page.batch_id == batch_id))}
        page_key = {pid: (p.source, p.page_number) for pid, p in pages.items()}
        puzzles = list(db.scalars(select(Puzzle).where(Puzzle.batch_id == batch_id)))
        puzzle_key = {z.id: (*page_key[z.page_id], z.index_on_page) for z in puzzles}
        ids = list(puzzle_key)
        cells = db.scalars(select(Cell).where(Cell.puzzle_id.in_(ids)))
        solutions = db.scalars(select(Solution).where(Solution.puzzle_id.in_(ids)))
        runs = db.scalars(select(StageRun).where(StageRun.batch_id == batch_id))
        return {
            "files": sorted((f.name, f.status, f.error_code, f.message) for f in input_files),
            "pages": {
                page_key[p.id]: (
                    files[p.input_file_id],
                    p.format,
                    p.member,
                    p.frame_index,
                    p.status,
                    p.error_code,
                    p.message,
                    p.width,
                    p.height,
                    p.image_path is not None,
                )
                for p in pages.values()
            },
            "puzzles": {
                puzzle_key[z.id]: (
                    z.status,
                    z.error_code,
                    z.message,
                    z.size,
                    z.box_rows,
                    z.box_cols,
                    z.rotation,
                    z.givens,
                    _rounded(z.lowest_confidence),
                    _rounded(z.corners),
                    _rounded(z.homography),
                    _rounded(z.lattice),
                    bool(z.board_image_path),
                    # The book check, worked out in the solve step both drivers run.
                    z.role,
                    z.rating,
                    z.techniques,
                    z.level,
                    z.rating_reason,
                    z.canonical,
                    z.variant,
                    z.regions,
                    # The certificate, judged in the same solve step.
                    z.certified,
                    z.review_reasons,
                )
                for z in puzzles
            },
            "cells": {
                (*puzzle_key[c.puzzle_id], c.row, c.col): (
                    c.kind,
                    c.digit,
                    _rounded(c.confidence),
                    _rounded(c.alternatives),
                )
                for c in cells
            },
            "solutions": {
                puzzle_key[s.puzzle_id]: (
                    s.verdict,
                    s.grid,
                    s.second_grid,
                    _rounded(s.doubts),
                    s.backend,
                    s.message,
                    s.render_path is not None,
                    _rounded(s.suggestion),
                )
                for s in solutions
            },
            "stage_runs": sorted(
                (
                    r.stage,
                    r.status,
                    r.error_code,
                    r.message,
                    subject(r, page_key, puzzle_key, files),
                )
                for r in runs
            ),
        }


def run_tasks(sessions: sessionmaker[Session], batch_id: int) -> set[tuple[str, str | None]]:
    """The batch's stage runs as (stage, the server task it ran in)."""
    with sessions() as db:
        query = select(StageRun.stage, StageRun.task).where(StageRun.batch_id == batch_id)
        return {(stage, task) for stage, task in db.execute(query)}


def subject(run: StageRun, page_key, puzzle_key, files) -> tuple:
    if run.puzzle_id is not None:
        return ("puzzle", *puzzle_key[run.puzzle_id])
    if run.page_id is not None:
        return ("page", *page_key[run.page_id])
    return ("file", files[run.input_file_id])


def _rounded(value: Any) -> Any:
    """Floats to 4 decimals: the two drivers run the same code, but a float that went through
    PostgreSQL's double and SQLite's real may differ in its last bits."""
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(item) for item in value]
    return value


def embedded_rows(out_dir: Path) -> dict[str, Any]:
    engine = make_engine(f"sqlite:///{out_dir / DATABASE_NAME}")
    try:
        return rows(make_session_factory(engine), 1)
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", ["images", "text"])
def test_both_drivers_write_the_same_rows(
    kind: str,
    inputs: Path,
    server: Settings,
    sessions: sessionmaker[Session],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    names = ["photo.jpg", "book.pdf"] if kind == "images" else ["puzzles.txt"]
    batch_id = submit(
        server,
        "/batches" if kind == "images" else "/text-batches",
        [inputs / name for name in names],
    )
    # Run from the inputs' folder, so the embedded runner's labels are the names the API got.
    monkeypatch.chdir(inputs)
    options = EmbeddedOptions(out_dir=tmp_path / "out", jobs=1, progress=False)
    if kind == "images":
        run_batch(names, options)
    else:
        run_text_batch(names, options)

    served, embedded = rows(sessions, batch_id), embedded_rows(tmp_path / "out")
    assert served["puzzles"], "the server found no puzzle: nothing was compared"
    ratings = [value[14] for value in served["puzzles"].values() if value[0] == "solved"]
    assert ratings and all(ratings), "every solved puzzle is rated by both drivers alike"
    certificates = [(value[0], value[21], value[22]) for value in served["puzzles"].values()]
    assert all(isinstance(certified, bool) for _, certified, _ in certificates)
    assert any(certified for _, certified, _ in certificates), "a clean grid is certified"
    assert all(reasons for _, certified, reasons in certificates if not certified), (
        "a grid not certified says why"
    )
    for table in served:
        assert embedded[table] == served[table], f"{table} differ between the drivers"
    # Which server task each stage ran in, by its stage (a solve may be settled in the OCR
    # task); the embedded runner has none.
    served_tasks = run_tasks(sessions, batch_id)
    assert {stage for stage, _ in served_tasks} >= {"ingest", "solve"}
    assert all(task == stage or (stage, task) == ("solve", "ocr") for stage, task in served_tasks)
    engine = make_engine(f"sqlite:///{tmp_path / 'out' / DATABASE_NAME}")
    try:
        assert {task for _, task in run_tasks(make_session_factory(engine), 1)} == {None}
    finally:
        engine.dispose()
    if kind == "images":
        sizes = sorted(value[3] for value in served["puzzles"].values())
        assert sizes == [6, 9, 9], "the inputs hold a 9x9 photo and a 6x6 and a 9x9 page"
        assert len(served["cells"]) == 6 * 6 + 2 * 81
    else:
        verdicts = sorted(value[0] for value in served["solutions"].values())
        assert verdicts == ["invalid", "multiple_solutions", "solved"]
        codes = sorted(
            (status, [reason["code"] for reason in reasons]) for status, _, reasons in certificates
        )
        assert codes == [
            ("multiple_solutions", ["not_unique"]),
            ("solved", []),
            ("unsolvable", ["unsolvable"]),
        ]
