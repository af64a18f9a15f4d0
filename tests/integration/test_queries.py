"""Every query of docs/queries.md runs on PostgreSQL and on SQLite after a real run, and its
answer is checked against the results.jsonl the run wrote (``results_run``)."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import text

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.solve.canonical import FormTooCostly, canonical_text
from sudoku_batch.store.db import make_engine
from tests.conftest import REPO_ROOT
from tests.integration.results_run import RealRun, both_urls

pytestmark = pytest.mark.services

QUERIES_DOC = REPO_ROOT / "docs" / "queries.md"
CHECK = re.compile(r"<!-- check: (\w+) -->")
BLOCK = re.compile(r"```sql( postgresql| sqlite)?\n(.*?)```", re.S)
DIALECTS = ("postgresql", "sqlite")


@dataclass(frozen=True)
class Query:
    check: str
    sql: dict[str, str]  # per dialect


def documented_queries() -> list[Query]:
    """Each ``<!-- check: NAME -->`` and the SQL blocks after it, until the next check."""
    document = QUERIES_DOC.read_text()
    marks = list(CHECK.finditer(document))
    queries = []
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        section = document[mark.end() : following.start() if following else None]
        sql: dict[str, str] = {}
        for block in BLOCK.finditer(section):
            dialect = (block.group(1) or "").strip()
            for each in [dialect] if dialect else DIALECTS:
                sql[each] = block.group(2)
        assert set(sql) == set(DIALECTS), f"{mark.group(1)}: a query for each database"
        queries.append(Query(mark.group(1), sql))
    return queries


QUERIES = documented_queries()


def test_the_document_has_a_dozen_questions_each_checked_here() -> None:
    assert len(QUERIES) >= 12
    assert {query.check for query in QUERIES} == set(CHECKS)


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("query", QUERIES, ids=lambda query: query.check)
def test_documented_query_answers_as_results_jsonl_says(
    real_run: RealRun, query: Query, dialect: str
) -> None:
    sql = query.sql[dialect]
    params = _params_of(real_run, sql)
    engine = make_engine(both_urls(real_run)[dialect])
    try:
        with engine.connect() as connection:
            rows = [tuple(row) for row in connection.execute(text(sql), params)]
    finally:
        engine.dispose()
    CHECKS[query.check](rows, Answers(real_run))


def _params_of(run: RealRun, sql: str) -> dict[str, Any]:
    """The values of the parameters ``sql`` names (``:batch_id``: the image batch)."""
    source, page = Answers(run).first_grid_page()
    values = {"batch_id": run.image_batch, "source": source, "page": page}
    return {name: value for name, value in values.items() if f":{name}" in sql}


@dataclass
class Answers:
    """What results.jsonl says, as the documented queries would answer."""

    run: RealRun

    @property
    def records(self) -> list[dict]:
        return [record for records in self.run.jsonl.values() for record in records]

    @property
    def batch(self) -> list[dict]:
        return self.run.jsonl[self.run.image_batch]

    @property
    def grids(self) -> list[dict]:
        return [record for record in self.batch if record["puzzle_id"] is not None]

    def first_grid_page(self) -> tuple[str, int]:
        return self.grids[0]["source"], self.grids[0]["page"]

    def record_at(self, source: str, page: int, index: int) -> dict:
        (found,) = [
            r for r in self.batch if (r["source"], r["page"], r["index"]) == (source, page, index)
        ]
        return found


def check_per_status(rows: list[tuple], answers: Answers) -> None:
    counted = Counter((r["batch_id"], r["status"]) for r in answers.records)
    running = {
        (batch, status): n for batch, status, n in rows if batch == answers.run.running_batch
    }
    assert running == {
        (answers.run.running_batch, "pending"): 1,
        (answers.run.running_batch, "read"): 1,
    }
    assert {
        (batch, status): n for batch, status, n in rows if (batch, status) not in running
    } == counted


def check_doubtful_cells(rows: list[tuple], answers: Answers) -> None:
    for source, page, index, row, col, kind, digit, confidence, _ in rows:
        record = answers.record_at(source, page, index)
        assert confidence < 0.9
        if kind == "given":
            assert record["confidence"] <= confidence
            assert record["givens"][row][col] == digit
    lowest: dict[tuple, float] = {}
    for source, page, index, *_, confidence, _ in rows:
        key = (source, page, index)
        lowest[key] = min(confidence, lowest.get(key, confidence))
    for record in answers.grids:
        if record["confidence"] is not None and record["confidence"] < 0.9:
            key = (record["source"], record["page"], record["index"])
            assert lowest[key] <= record["confidence"]


def check_no_grid_pages(rows: list[tuple], answers: Answers) -> None:
    expected = [
        (r["batch_id"], r["source"], r["page"], r["message"])
        for r in answers.records
        if r["status"] == "no_grid"
    ]
    assert expected and sorted(rows) == sorted(expected)


def check_two_solutions(rows: list[tuple], answers: Answers) -> None:
    expected = [
        (r["batch_id"], r["source"], r["page"], r["index"], i, j, first, second)
        for r in answers.records
        if r["status"] == "multiple_solutions"
        for i, (line, other) in enumerate(zip(r["solution"], r["second_solution"], strict=True))
        for j, (first, second) in enumerate(zip(line, other, strict=True))
        if first != second
    ]
    assert expected and sorted(rows) == sorted(expected)


def check_slowest_pages(rows: list[tuple], answers: Answers) -> None:
    pages = {(r["source"], r["page"]) for r in answers.batch if r["page"] is not None}
    assert len(rows) == min(10, len(pages))
    totals = [total for _, _, total in rows]
    assert totals == sorted(totals, reverse=True)
    for source, page, total in rows:
        grids = [r for r in answers.grids if (r["source"], r["page"]) == (source, page)]
        if grids:  # a page without a grid has no seconds in results.jsonl
            rectify = grids[0]["seconds"].get("rectify", 0.0)
            rest = sum(s for r in grids for stage, s in r["seconds"].items() if stage != "rectify")
            assert math.isclose(total, rectify + rest, rel_tol=1e-9)


def check_stage_percentiles(rows: list[tuple], answers: Answers) -> None:
    by_stage = {stage: rest for stage, *rest in rows}
    for stage in ("ocr", "solve"):  # the stages results.jsonl times in full, once per grid
        times = sorted(r["seconds"][stage] for r in answers.grids if stage in r["seconds"])
        runs, p50, p90, p99, slowest = by_stage[stage]
        assert runs == len(times)
        for share, value in ((50, p50), (90, p90), (99, p99)):
            assert value == times[(len(times) * share + 99) // 100 - 1]
        assert slowest == times[-1]
    for runs, p50, p90, p99, slowest in by_stage.values():
        assert runs > 0 and p50 <= p90 <= p99 <= slowest


def check_still_running(rows: list[tuple], answers: Answers) -> None:
    # results.jsonl of the finished batches has no pending record: only the unfinished batch.
    assert not [r for r in answers.records if r["status"] in ("pending", "read")]
    batch = answers.run.running_batch
    assert [row[:3] for row in rows] == [
        (batch, "ingest", 1),
        (batch, "rectify", 1),
        (batch, "solve", 1),
    ]


def check_failures_by_code(rows: list[tuple], answers: Answers) -> None:
    counted = Counter((r["error_code"], r["status"]) for r in answers.records if r["error_code"])
    assert counted and {(code, status): n for code, status, n in rows} == counted
    counts = [n for _, _, n in rows]
    assert counts == sorted(counts, reverse=True)


def check_not_solved(rows: list[tuple], answers: Answers) -> None:
    expected = [
        (r["source"], r["page"], r["index"], r["status"], r["error_code"], r["message"])
        for r in answers.batch
        if r["status"] != "solved"
    ]
    assert expected and sorted(rows, key=repr) == sorted(expected, key=repr)


def check_least_sure_solved(rows: list[tuple], answers: Answers) -> None:
    expected = [
        (r["source"], r["page"], r["index"], r["confidence"], r["render_path"])
        for r in answers.grids
        if r["status"] == "solved" and r["confidence"] < 0.95
    ]
    assert sorted(rows) == sorted(expected)


def check_doubts(rows: list[tuple], answers: Answers) -> None:
    expected = [
        (r["source"], r["page"], r["index"], r["status"], len(r["doubts"]))
        for r in answers.records
        if r["doubts"]
    ]
    assert sorted(rows) == sorted(expected)


def check_shapes(rows: list[tuple], answers: Answers) -> None:
    counted = Counter((r["size"][0], *r["box"]) for r in answers.grids)
    assert {(size, rows_, cols): n for size, rows_, cols, n in rows} == counted


def check_failed_inputs(rows: list[tuple], answers: Answers) -> None:
    expected = [
        (r["batch_id"], r["source"], r["error_code"], r["message"])
        for r in answers.records
        if r["page"] is None
    ]
    assert expected and sorted(rows) == sorted(expected)


def check_duplicates(rows: list[tuple], answers: Answers) -> None:
    where = [r for r in answers.records if r["givens"] is not None]
    expected = [
        (a["batch_id"], a["source"], a["page"], a["index"])
        + (b["batch_id"], b["source"], b["page"], b["index"])
        for a in where
        for b in where
        if b["batch_id"] > a["batch_id"] and json.dumps(a["givens"]) == json.dumps(b["givens"])
    ]
    assert expected and sorted(rows) == sorted(expected)  # the example puzzle, given as text


def check_page_cells(rows: list[tuple], answers: Answers) -> None:
    source, page = answers.first_grid_page()
    expected = {
        (r["index"], i, j, digit)
        for r in answers.grids
        if (r["source"], r["page"]) == (source, page)
        for i, line in enumerate(r["givens"])
        for j, digit in enumerate(line)
        if digit
    }
    assert expected and {row[:4] for row in rows} == expected
    for index, _, _, _, confidence, runner_ups in rows:
        assert confidence >= answers.record_at(source, page, index)["confidence"]
        assert isinstance(runner_ups, list | str)


def check_levels(rows: list[tuple], answers: Answers) -> None:
    ratings: dict[tuple, list[float]] = {}
    for r in answers.records:
        if r.get("role") == "puzzle" and r["status"] == "solved":
            ratings.setdefault((r["batch_id"], r["level"]), []).append(r["rating"])
    expected = {}
    for key, values in ratings.items():
        rated = [v for v in values if v is not None]
        expected[key] = (len(values), min(rated, default=None), max(rated, default=None))
    assert any(level for _, level in expected)  # some puzzles were rated
    assert {(batch, level): (n, low, high) for batch, level, n, low, high in rows} == expected


def check_copies(rows: list[tuple], answers: Answers) -> None:
    form = {
        r["puzzle_id"]: text
        for r in answers.records
        if r.get("role") == "puzzle" and r["givens"] is not None
        if all(v is not None for line in r["givens"] for v in line)
        if (text := _form_or_none(r)) is not None
    }
    expected = [
        (a["batch_id"], a["puzzle_id"], b["batch_id"], b["puzzle_id"])
        for a in answers.records
        for b in answers.records
        if a["puzzle_id"] in form and b["puzzle_id"] in form
        if b["puzzle_id"] > a["puzzle_id"] and form[a["puzzle_id"]] == form[b["puzzle_id"]]
    ]
    assert expected and sorted(rows) == sorted(expected)


def _form_or_none(record: dict) -> str | None:
    """The canonical text, or None where the run records none (past the form's bound)."""
    try:
        return canonical_text(_as_solved(record))
    except FormTooCostly:
        return None


def _as_solved(record: dict) -> Puzzle:
    """The grid as solved: each reading the solver set aside replaced as it was."""
    rows = [list(line) for line in record["givens"]]
    for doubt in record["doubts"]:
        rows[doubt["row"]][doubt["col"]] = doubt["replaced_by"]
    return Puzzle.from_rows(rows, GridShape(*record["box"]))


CHECKS: dict[str, Callable[[list[tuple], Answers], None]] = {
    "per_status": check_per_status,
    "doubtful_cells": check_doubtful_cells,
    "no_grid_pages": check_no_grid_pages,
    "two_solutions": check_two_solutions,
    "slowest_pages": check_slowest_pages,
    "stage_percentiles": check_stage_percentiles,
    "still_running": check_still_running,
    "failures_by_code": check_failures_by_code,
    "not_solved": check_not_solved,
    "least_sure_solved": check_least_sure_solved,
    "doubts": check_doubts,
    "shapes": check_shapes,
    "failed_inputs": check_failed_inputs,
    "duplicates": check_duplicates,
    "page_cells": check_page_cells,
    "levels": check_levels,
    "copies": check_copies,
}


# Other batches' cells, so the planner sees a table where one batch is a small part, as in a
# server's database. On a few hundred rows any plan is a sequential scan, and enable_seqscan=off
# would only say an index exists, not that the planner takes it. Measured: with ~40,000 other
# cells the planner still scans cells (it is cheaper then), from ~160,000 it takes the unique
# index on (puzzle_id, row, col) through ix_puzzles_batch_id; so no index of its own is needed.
OTHER_BATCHES_CELLS = """
WITH filler_batch AS (
    INSERT INTO batches (public_id, label, created_at)
    VALUES (gen_random_uuid(), 'filler', now()) RETURNING id
), filler_file AS (
    INSERT INTO input_files (batch_id, name, stored_path, status, created_at)
    SELECT id, 'filler.pdf', 'filler.pdf', 'expanded', now() FROM filler_batch
    RETURNING id, batch_id
), filler_pages AS (
    INSERT INTO pages (batch_id, input_file_id, source, page_number, format, frame_index, status)
    SELECT batch_id, id, 'filler.pdf', n, 'pdf', 0, 'done'
    FROM filler_file, generate_series(1, 2000) AS n RETURNING id, batch_id
), filler_puzzles AS (
    INSERT INTO puzzles (public_id, batch_id, page_id, index_on_page, status, rotation)
    SELECT gen_random_uuid(), batch_id, id, 0, 'solved', 0 FROM filler_pages
    RETURNING id
)
INSERT INTO cells (puzzle_id, row, col, kind, digit, confidence, alternatives, candidates)
SELECT p.id, n / 9, n % 9, 'given', 1 + n % 9, random(), '[]', '[]'
FROM filler_puzzles p, generate_series(0, 80) AS n
"""
PER_BATCH_CELL_QUERIES = ("doubtful_cells", "page_cells")


def test_per_batch_cell_queries_read_cells_by_index(real_run: RealRun) -> None:
    engine = make_engine(real_run.postgres_url)
    plans = {}
    try:
        with engine.connect() as connection, connection.begin() as transaction:
            connection.execute(text(OTHER_BATCHES_CELLS))
            connection.execute(text("ANALYZE"))
            for query in QUERIES:
                if query.check in PER_BATCH_CELL_QUERIES:
                    sql = query.sql["postgresql"]
                    params = _params_of(real_run, sql)
                    explained = connection.execute(text(f"EXPLAIN {sql}"), params)
                    plans[query.check] = "\n".join(row[0] for row in explained)
            transaction.rollback()  # the filler and its statistics go with it
    finally:
        engine.dispose()
    assert set(plans) == set(PER_BATCH_CELL_QUERIES)
    for check, plan in plans.items():
        assert "Seq Scan on cells" not in plan, (check, plan)
        assert "uq_cells_puzzle_id_row_col" in plan, (check, plan)
