"""Jigsaw and diagonal puzzles given as text, end to end through the embedded runner: solved,
proved unique, rated, and recorded with their ``variant`` and ``regions`` (results.jsonl, the
database, CSV)."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest

from sudoku_batch.cli import main
from sudoku_batch.embedded import DATABASE_NAME
from sudoku_batch.pipeline.geometry import box_regions
from tests.solve.variants import (
    DIAGONAL,
    DIAGONAL_SOLVED,
    JIGSAW,
    JIGSAW_DIAGONAL,
    JIGSAW_DIAGONAL_SOLVED,
    JIGSAW_REGIONS,
    JIGSAW_SOLVED,
    grid_of,
)

CLASSIC = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
# Region 0 takes a cell of region 4: two regions of the wrong size.
BAD_PARTITION = JIGSAW.split("/")[0] + "/" + JIGSAW_REGIONS[:1] + "4" + JIGSAW_REGIONS[2:]


def test_variants_by_text_are_solved_rated_and_recorded_with_their_regions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # Minimal variants are hard to rate: a budget no busy machine's wall-clock backstop reaches.
    monkeypatch.setenv("SUDOKU_BATCH_RATING_SECONDS", "60")
    puzzles = tmp_path / "variants.txt"
    puzzles.write_text("\n".join([JIGSAW, DIAGONAL, JIGSAW_DIAGONAL, CLASSIC, BAD_PARTITION]))
    out = tmp_path / "out"
    code = main(["run", "--text", str(puzzles), "--out", str(out), "--no-progress"])
    assert code == 4  # the bad partition's line failed; the rest solved
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    by_line = {record["page"]: record for record in records}
    regions = [[int(s) for s in JIGSAW_REGIONS[r * 9 : r * 9 + 9]] for r in range(9)]
    boxes = [list(row) for row in box_regions(3, 3)]
    expected = {
        1: ("jigsaw", regions, JIGSAW_SOLVED),
        2: ("diagonal", boxes, DIAGONAL_SOLVED),
        3: ("jigsaw+diagonal", regions, JIGSAW_DIAGONAL_SOLVED),
    }
    for line, (variant, its_regions, solved) in expected.items():
        record = by_line[line]
        assert record["status"] == "solved", record["message"]
        assert (record["variant"], record["regions"]) == (variant, its_regions)
        assert record["solution"] == [list(row) for row in grid_of(solved)]
        assert record["role"] == "puzzle" and record["rating"] is not None
        assert f"{variant} Sudoku: the SE scale is not established" in record["message"]
    classic = by_line[4]
    assert classic["status"] == "solved" and classic["variant"] == "classic"
    assert classic["regions"] == boxes and classic["box"] == [3, 3]
    bad = by_line[5]
    assert bad["status"] == "failed" and bad["error_code"] == "invalid_regions"
    assert "cells, not 9" in bad["message"]

    with sqlite3.connect(out / DATABASE_NAME) as db:
        stored = db.execute("select variant, regions from puzzles order by id").fetchall()
    assert [variant for variant, _ in stored] == [
        "jigsaw",
        "diagonal",
        "jigsaw+diagonal",
        "classic",
    ]
    assert json.loads(stored[0][1]) == regions

    table = tmp_path / "results.csv"
    assert main(["export", str(out), "--format", "csv", "--out", str(table)]) == 0
    rows = list(csv.DictReader(table.read_text().splitlines()))
    assert rows[0]["variant"] == "jigsaw" and rows[0]["regions"] == JIGSAW_REGIONS
    assert rows[3]["regions"] == "".join(str(k) for row in boxes for k in row)
