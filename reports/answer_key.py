"""The answer-key PDF of a batch: each puzzle's solution under its number, several per page.

Numbers: the printed ones (with their printed label, "Easy 12", where the book restarts its
numbers per section) when every puzzle of the batch has one and no two share one; else every
puzzle is numbered by its place in the batch, so that a number read wrong or missing never
puts two solutions under one number. Digits above 9 print as the book printed them
(``puzzles.symbols``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_batch.pipeline.answer_key_pdf import KeyEntry, write_answer_key_pdf
from sudoku_batch.pipeline.geometry import CLASSIC, JIGSAW
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.store.book_check import as_grid
from sudoku_batch.store.models import Puzzle
from sudoku_batch.store.results import result_records


def puzzle_titles(records: Sequence[dict[str, Any]]) -> list[str]:
    """Each puzzle record's title in the key: its printed label and number when the printed
    numbers are consistent (all present, each (label, number) once), else its place."""
    printed = [(r["printed_label"], r["printed_number"]) for r in records]
    consistent = all(number is not None for _, number in printed) and len(set(printed)) == len(
        printed
    )
    if not consistent:
        return [str(place) for place in range(1, len(records) + 1)]
    return [" ".join(str(part) for part in key if part is not None) for key in printed]


def answer_key_entries(session: Session, batch_id: int) -> list[KeyEntry]:
    puzzles = [
        record
        for record in result_records(session, batch_id)
        if record["index"] is not None and record["role"] != "answer"
    ]
    query = select(Puzzle.id, Puzzle.symbols).where(
        Puzzle.batch_id == batch_id, Puzzle.symbols.is_not(None)
    )
    symbols = {puzzle_id: printed for puzzle_id, printed in session.execute(query)}
    entries = []
    for record, title in zip(puzzles, puzzle_titles(puzzles), strict=True):
        box = GridShape(*record["box"]) if record["box"] else None
        solved = record["status"] == "solved"
        entries.append(
            KeyEntry(
                title,
                as_grid(record["solution"]) if solved else None,
                box,
                f"{record['source']} p. {record['page']}",
                symbols.get(record["puzzle_id"]),
                "" if solved else f"not solved: {record['status'].replace('_', ' ')}",
                f"{PurePath(record['source']).name} p. {record['page']}",
                _jigsaw_regions(record),
                record["variant"] or CLASSIC,
            )
        )
    return entries


def _jigsaw_regions(record: dict[str, Any]) -> tuple[tuple[int, ...], ...] | None:
    """A jigsaw's regions, drawn instead of boxes; None for boxes (``puzzles.regions`` holds
    a classic grid's boxes too)."""
    if record["regions"] is None or JIGSAW not in (record["variant"] or CLASSIC).split("+"):
        return None
    return tuple(tuple(row) for row in record["regions"])


def write_batch_answer_key(
    session: Session, batch_id: int, path: Path, paper: str = "a4"
) -> tuple[int, int]:
    """Write the PDF; returns (solutions, pages)."""
    entries = answer_key_entries(session, batch_id)
    solved = sum(entry.solution is not None for entry in entries)
    return solved, write_answer_key_pdf(entries, path, paper=paper)
