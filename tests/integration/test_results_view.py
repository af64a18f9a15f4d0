"""The ``results`` view is results.jsonl: after a real run, on PostgreSQL and on SQLite, its
rows equal the records the run wrote and the records assembled from the tables in Python
(``tests.results_from_tables``), field by field; exports and the API's CSV say the same."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text, update

from sudoku_batch.api.app import create_app
from sudoku_batch.cli import main
from sudoku_batch.settings import Settings
from sudoku_batch.store.db import make_engine, make_session_factory
from sudoku_batch.store.exports import CSV_COLUMNS, PUBLIC_CSV_COLUMNS
from sudoku_batch.store.keys import create_key
from sudoku_batch.store.models import Batch
from sudoku_batch.store.results import result_records, with_book_check
from sudoku_batch.store.results_view import cell_readings, results
from tests import results_from_tables
from tests.integration.results_run import RealRun, both_urls

pytestmark = pytest.mark.services

DIALECTS = ("postgresql", "sqlite")


def _records_of(url: str, batch_id: int) -> tuple[list[dict], list[dict]]:
    """The batch's records read from the view, and assembled from the tables."""
    engine = make_engine(url)
    try:
        with make_session_factory(engine)() as db:
            # The book check's fields are added to both alike (store.results.with_book_check):
            # what is compared is the view against the tables it reads.
            from_tables = results_from_tables.result_records(db, batch_id)
            return result_records(db, batch_id), with_book_check(db, batch_id, from_tables)
    finally:
        engine.dispose()


def _assert_same_records(got: list[dict], expected: list[dict], what: str) -> None:
    """Same records in the same order, with the same keys, field by field (the key order of a
    record without a grid changed with the view: JSON objects have none)."""
    assert len(got) == len(expected), what
    for number, (record, wanted) in enumerate(zip(got, expected, strict=True)):
        assert sorted(record) == sorted(wanted), (what, number)
        for key, value in wanted.items():
            assert record[key] == value, (what, number, key)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_view_rows_are_the_results_jsonl_records(real_run: RealRun, dialect: str) -> None:
    url = both_urls(real_run)[dialect]
    for batch_id, written in real_run.jsonl.items():
        from_view, from_tables = _records_of(url, batch_id)
        _assert_same_records(from_view, written, f"{dialect} view vs results.jsonl {batch_id}")
        _assert_same_records(from_tables, written, f"{dialect} tables vs jsonl {batch_id}")
    statuses = {r["status"] for records in real_run.jsonl.values() for r in records}
    assert {"solved", "no_grid", "failed", "multiple_solutions", "unsolvable"} <= statuses


@pytest.mark.parametrize("dialect", DIALECTS)
def test_an_unfinished_batch_reads_the_same_from_the_view_and_the_tables(
    real_run: RealRun, dialect: str
) -> None:
    from_view, from_tables = _records_of(both_urls(real_run)[dialect], real_run.running_batch)
    _assert_same_records(from_view, from_tables, f"{dialect} unfinished batch")
    assert [r["status"] for r in from_view] == ["read", "pending"]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_views_have_the_columns_the_code_reads(real_run: RealRun, dialect: str) -> None:
    engine = make_engine(both_urls(real_run)[dialect])
    try:
        with engine.connect() as connection:
            for view in (results, cell_readings):
                answer = connection.execute(text(f"SELECT * FROM {view.name} LIMIT 1"))
                assert list(answer.keys()) == [column.name for column in view.columns]
        if dialect == "postgresql":  # what \\d+ results shows
            inspector = inspect(engine)
            assert "results.jsonl" in inspector.get_table_comment("results")["text"]
            for view in (results, cell_readings):
                shown = {c["name"]: c["comment"] for c in inspector.get_columns(view.name)}
                assert shown == {column.name: column.comment for column in view.columns}
    finally:
        engine.dispose()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_export_writes_the_records_as_jsonl_and_csv(
    real_run: RealRun, dialect: str, tmp_path: Path
) -> None:
    url, batch = both_urls(real_run)[dialect], real_run.image_batch
    jsonl, table = tmp_path / "r.jsonl", tmp_path / "r.csv"
    assert main(["export", str(batch), "--out", str(jsonl), "--database-url", url]) == 0
    assert [json.loads(line) for line in jsonl.read_text().splitlines()] == real_run.jsonl[batch]
    argv = ["export", str(batch), "--format", "csv", "--out", str(table), "--database-url", url]
    assert main(argv) == 0
    _check_csv(table.read_text(), real_run.jsonl[batch])
    assert main(["export", "999999", "--out", str(jsonl), "--database-url", url]) == 2


def _check_csv(content: str, records: list[dict], columns: tuple[str, ...] = CSV_COLUMNS) -> None:
    rows = list(csv.DictReader(io.StringIO(content)))
    assert tuple(rows[0]) == columns
    assert len(rows) == len(records)
    for row, record in zip(rows, records, strict=True):
        assert (row["source"], row["status"]) == (record["source"], record["status"])
        # The book check's fields travel too (issue 14).
        assert (row["role"], row["level"]) == (record["role"] or "", record["level"] or "")
        assert json.loads(row["techniques"]) == record["techniques"]
        if record["givens"] is None:
            assert row["givens"] == row["solution"] == row["size"] == ""
            continue
        n = record["size"][0]
        assert row["size"] == f"{n}x{n}" and len(row["givens"]) == n * n
        flat = [value for line in record["givens"] for value in line]
        assert [c == "." for c in row["givens"]] == [value == 0 for value in flat]
        if record["solution"] is not None:
            digits = [value for line in record["solution"] for value in line]
            symbols = ("*" if d is None else "123456789ABCDEFG"[d - 1] for d in digits)
            assert row["solution"] == "".join(symbols)
        assert json.loads(row["seconds"]) == record["seconds"]


def test_the_api_gives_the_records_as_csv_to_the_owner_only(
    real_run: RealRun, redis_url: str, tmp_path: Path
) -> None:
    settings = Settings(data_dir=tmp_path, database_url=real_run.postgres_url, broker_url=redis_url)
    engine = make_engine(real_run.postgres_url)
    try:
        with make_session_factory(engine).begin() as db:
            owner, other = create_key(db, "csv-owner"), create_key(db, "csv-other")
            key_id = db.scalar(text("SELECT id FROM api_keys WHERE name = 'csv-owner'"))
            db.execute(
                update(Batch).where(Batch.id == real_run.image_batch).values(api_key_id=key_id)
            )
            public_id = db.get_one(Batch, real_run.image_batch).public_id
    finally:
        engine.dispose()
    app = create_app(settings)
    url = f"/batches/{public_id}/results.csv"
    with TestClient(app, headers={"Authorization": f"Bearer {owner}"}) as api:
        answer = api.get(url)
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"].startswith("text/csv")
        _check_csv(answer.text, real_run.jsonl[real_run.image_batch], PUBLIC_CSV_COLUMNS)
        rows = list(csv.DictReader(io.StringIO(answer.text)))
        assert {row["batch_id"] for row in rows} == {str(public_id)}
        # No row id of the database: the puzzles' are the public ones the API gives.
        assert not {"input_file_id", "page_id"} & set(rows[0])
        items = api.get(f"/batches/{public_id}/results").json()["items"]
        public_puzzles = {item["puzzle_id"] for item in items if item["puzzle_id"]}
        assert {row["puzzle_id"] for row in rows if row["puzzle_id"]} == public_puzzles
        records = real_run.jsonl[real_run.image_batch]
        for query, wanted in (
            ("status=solved&limit=2&offset=1", [r for r in records if r["status"] == "solved"]),
            ("confidence_below=0.99", [r for r in records if (r["confidence"] or 1) < 0.99]),
        ):
            page = api.get(f"/batches/{public_id}/results?{query}").json()
            offset = int(query.partition("offset=")[2] or 0)
            assert page["total"] == len(wanted)
            shown = [(r["source"], r["page"], r["index"]) for r in page["items"]]
            assert (
                shown
                == [(r["source"], r["page"], r["index"]) for r in wanted][offset:][: len(shown)]
            )
            assert len(shown) == min(len(wanted) - offset, 2 if "limit" in query else 100)
    with TestClient(app, headers={"Authorization": f"Bearer {other}"}) as api:
        assert api.get(url).status_code == 404
    assert TestClient(app).get(url).status_code == 401
