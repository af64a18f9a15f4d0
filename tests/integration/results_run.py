"""A real embedded run, the same rows on PostgreSQL, and the results.jsonl it wrote: what the
tests of the ``results`` view, the documented queries and the exports look at.

One SQLite output folder holds three batches: an image batch (the examples, a synthetic
two-page book, a blank page, a file that is no image), a text batch (solved, two solutions,
clashing givens, a line that is no puzzle, one example puzzle again, so a puzzle appears in two
batches; and a file of comments only, which fails before its lines are listed), and a batch
left unfinished on purpose (written directly: an embedded run always finishes). Every row is
then copied, ids and all, into a fresh PostgreSQL database.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import psycopg
import pytest
from sqlalchemy import insert, select, text
from sqlalchemy.engine import make_url

from sudoku_batch.embedded import DATABASE_NAME, RESULTS_NAME, EmbeddedOptions, run_batch
from sudoku_batch.embedded_text import run_text_batch
from sudoku_batch.pipeline.ingest.textpuzzle import format_grid
from sudoku_batch.store.db import make_engine, make_session_factory
from sudoku_batch.store.migrate import upgrade
from sudoku_batch.store.models import Base, Batch, InputFile, InputStatus, Page, PageStatus, Puzzle
from sudoku_batch.synth.book import random_book, write_book
from tests.conftest import REPO_ROOT
from tests.integration.conftest import ADMIN_POSTGRES_URL, RUN_ID

EXAMPLES = REPO_ROOT / "examples"
TEXT_PUZZLES = [
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    "." * 81,
    "55" + "." * 79,
    "12345",
]


@dataclass
class RealRun:
    sqlite_url: str
    postgres_url: str
    image_batch: int
    text_batch: int
    running_batch: int
    jsonl: dict[int, list[dict]]  # each finished batch's results.jsonl, as written


def make_inputs(folder: Path) -> Path:
    folder.mkdir(parents=True)
    for name in ("photo.jpg", "book.pdf"):
        (folder / name).write_bytes((EXAMPLES / name).read_bytes())
    book = random_book(np.random.default_rng(16), 2, dpi=150)
    write_book(folder, book, dpi=150, name="synthetic-book.pdf")
    cv2.imwrite(str(folder / "blank.png"), np.full((400, 300, 3), 255, np.uint8))
    (folder / "broken.png").write_bytes(b"this is no image")
    return folder


def example_puzzle_line() -> str:
    truth = json.loads((EXAMPLES / "truth.json").read_text())
    return format_grid(truth["photo.jpg"]["pages"][0]["grids"][0]["givens"])


def run_everything(tmp: Path) -> RealRun:
    out = tmp / "out"
    options = EmbeddedOptions(out_dir=out, jobs=2, progress=False)
    jsonl: dict[int, list[dict]] = {}
    # The folder, not its files: a batch's label is its inputs, and PostgreSQL keeps 200 chars.
    image = run_batch([make_inputs(tmp / "inputs")], options)
    jsonl[image.batch_id] = _read_jsonl(out / RESULTS_NAME)
    puzzles = tmp / "puzzles.txt"
    puzzles.write_text("\n".join([*TEXT_PUZZLES, example_puzzle_line()]) + "\n")
    comments = tmp / "comments-only.txt"  # no puzzle line: the file fails before listing
    comments.write_text("# nothing but a comment\n")
    text_batch = run_text_batch([puzzles, comments], options).batch_id
    jsonl[text_batch] = _read_jsonl(out / RESULTS_NAME)
    sqlite_url = f"sqlite:///{out / DATABASE_NAME}"
    running = _add_running_batch(sqlite_url)
    postgres_url = _copy_to_postgres(sqlite_url)
    return RealRun(sqlite_url, postgres_url, image.batch_id, text_batch, running, jsonl)


def drop_postgres_copy(postgres_url: str) -> None:
    name = make_url(postgres_url).database
    with psycopg.connect(ADMIN_POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _add_running_batch(sqlite_url: str) -> int:
    """A batch still at work: a file not listed yet, a page not searched, a grid not solved."""
    engine = make_engine(sqlite_url)
    try:
        with make_session_factory(engine).begin() as db:
            batch = Batch(label="still running")
            db.add(batch)
            db.flush()
            waiting = InputFile(batch_id=batch.id, name="waiting.pdf", stored_path="w.pdf")
            listed = InputFile(
                batch_id=batch.id, name="listed.pdf", stored_path="l.pdf", status="expanded"
            )
            db.add_all([waiting, listed])
            db.flush()
            assert waiting.status == InputStatus.PENDING
            searched, unsearched = (
                Page(
                    batch_id=batch.id,
                    input_file_id=listed.id,
                    source="listed.pdf",
                    page_number=number,
                    format="pdf",
                    status=status,
                )  # fmt: skip
                for number, status in ((1, PageStatus.DONE), (2, PageStatus.PENDING))
            )
            db.add_all([searched, unsearched])
            db.flush()
            db.add(Puzzle(batch_id=batch.id, page_id=searched.id, index_on_page=0, status="read"))
            return batch.id
    finally:
        engine.dispose()


def _copy_to_postgres(sqlite_url: str) -> str:
    name = f"sudoku_batch_results_{RUN_ID}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(ADMIN_POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    postgres_url = make_url(ADMIN_POSTGRES_URL).set(database=name).render_as_string(False)
    upgrade(postgres_url)
    source, target = make_engine(sqlite_url), make_engine(postgres_url)
    try:
        with source.connect() as reading, target.begin() as writing:
            for table in Base.metadata.sorted_tables:
                rows = [dict(row._mapping) for row in reading.execute(select(table))]
                if rows:
                    writing.execute(insert(table), rows)
                if "id" in table.c:  # rows came with their ids: new rows continue after them
                    writing.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'),"
                            f" (SELECT coalesce(max(id), 0) + 1 FROM {table.name}), false)"
                        )
                    )
    finally:
        source.dispose()
        target.dispose()
    return postgres_url


@pytest.fixture(scope="session")
def real_run(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RealRun]:
    """Once per test session (per xdist worker), for every module that asks for it (it is
    registered in ``conftest``). (``database_url``: PostgreSQL is up, or the tests skip as the
    other services tests do.)"""
    run = run_everything(tmp_path_factory.mktemp("results-run"))
    try:
        yield run
    finally:
        drop_postgres_copy(run.postgres_url)


def both_urls(run: RealRun) -> dict[str, str]:
    return {"postgresql": run.postgres_url, "sqlite": run.sqlite_url}
