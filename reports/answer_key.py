"""The answer-key PDF of a batch: each solved puzzle's solution under its number (the printed
number when one was read, else its place in the batch), several per page."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from pipeline.answer_key_pdf import KeyEntry, write_answer_key_pdf
from pipeline.grid import GridShape
from store.book_check import as_grid
from store.results import result_records


def answer_key_entries(session: Session, batch_id: int) -> list[KeyEntry]:
    entries = []
    number = 0
    for record in result_records(session, batch_id):
        if record["index"] is None or record["role"] == "answer":
            continue
        number += 1  # every puzzle counts, so the numbers follow the book's order
        if record["status"] != "solved":
            continue
        rows, cols = record["box"]
        place = f"{Path(record['source']).name} p. {record['page']}"
        label = f"{record['printed_number'] or number}  ({place})"
        entries.append(KeyEntry(label, as_grid(record["solution"]), GridShape(rows, cols)))
    return entries


def write_batch_answer_key(
    session: Session, batch_id: int, path: Path, paper: str = "a4"
) -> tuple[int, int]:
    """Write the PDF; returns (solutions, pages)."""
    entries = answer_key_entries(session, batch_id)
    return len(entries), write_answer_key_pdf(entries, path, paper=paper)
