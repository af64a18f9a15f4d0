"""The rater's speed work must not change a rating: every puzzle of the reference set gets the
score, techniques, level and reason it got before (see fixtures/make_reference_ratings.py)."""

from __future__ import annotations

import json
from pathlib import Path

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.rating import rate_puzzle

REFERENCE = Path(__file__).parent / "fixtures" / "reference_ratings.json"


def test_ratings_match_the_reference_set():
    rows = json.loads(REFERENCE.read_text())
    assert len(rows) == 365
    differ = []
    for index, row in enumerate(rows):
        puzzle = Puzzle(GridShape(*row["box"]), tuple(tuple(r) for r in row["givens"]))
        rating = rate_puzzle(puzzle)
        got = (rating.score, list(rating.techniques), rating.level, rating.reason)
        want = (row["score"], row["techniques"], row["level"], row["reason"])
        if got != want:
            differ.append((index, want, got))
    assert not differ, differ[:3]
