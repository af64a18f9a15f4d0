"""A batch's result records as files: JSON lines (as results.jsonl) or CSV.

CSV has one row per record and one column per field. Grids (``givens``, ``solution``,
``second_solution``) are N*N-character strings, row by row, in the alphabet of text puzzles
(``pipeline.ingest.textpuzzle``): ``1``-``9`` then ``A`` = 10 ... ``P`` = 25, ``.`` an empty
cell, ``*`` a blocked cell; an empty field when there is no grid. ``size`` and ``box`` are
``RxC`` (``9x9``, ``3x3``); ``regions`` is N*N characters, row by row, each cell's region
number ``0``-``9`` then ``A`` = 10 (as a jigsaw's regions are written in text puzzles). The
nested fields (``doubts``, ``corners``, ``seconds``) are compact JSON, and so are the book
check's ``techniques``, ``answer_key`` and ``duplicate_of``, the certificate's
``review_reasons`` and ``suggestion``, and the cells' ``ink`` and ``entries_check``. The
API's CSV (``PUBLIC_CSV_COLUMNS``) leaves out the database's row ids ``input_file_id`` and
``page_id``; its ``batch_id`` and ``puzzle_id`` are the public ids the rest of the API uses.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from typing import Any, TextIO

from sudoku_batch.pipeline.ingest.textpuzzle import format_grid, format_regions
from sudoku_batch.store.book_check import NO_BATCH_FIELDS
from sudoku_batch.store.results_view import GRID_KEYS, ROW_IDS

# The record's own keys, in results.jsonl order: the view's, then the batch-wide book check's.
CSV_COLUMNS = (*GRID_KEYS, *NO_BATCH_FIELDS)
# The API's CSV: the same but the database's row ids, as in its JSON results.
PUBLIC_CSV_COLUMNS = tuple(column for column in CSV_COLUMNS if column not in ROW_IDS)
GRID_FIELDS = ("givens", "solution", "second_solution")
SHAPE_FIELDS = ("size", "box")
JSON_FIELDS = (
    "doubts",
    "corners",
    "seconds",
    "techniques",
    "answer_key",
    "duplicate_of",
    "review_reasons",
    "suggestion",
    "ink",
    "entries_check",
)


def write_jsonl(records: Iterable[dict[str, Any]], out: TextIO) -> None:
    for record in records:
        out.write(json.dumps(record, default=str) + "\n")


def write_csv(
    records: Iterable[dict[str, Any]], out: TextIO, columns: tuple[str, ...] = CSV_COLUMNS
) -> None:
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(csv_row(record, columns) for record in records)


def csv_row(record: dict[str, Any], columns: tuple[str, ...]) -> dict[str, Any]:
    """One record's ``columns`` as CSV fields: grids as strings, shapes as RxC, nested values
    as JSON."""
    row = {column: record.get(column) for column in CSV_COLUMNS}
    for field in GRID_FIELDS:
        row[field] = format_grid(row[field]) if row[field] is not None else None
    if row["regions"] is not None:
        row["regions"] = format_regions(row["regions"])
    for field in SHAPE_FIELDS:
        row[field] = "x".join(str(n) for n in row[field]) if row[field] is not None else None
    for field in JSON_FIELDS:
        if field in record:
            row[field] = json.dumps(record[field], separators=(",", ":"))
    return {column: row[column] for column in columns}
