"""An embedded run's batch label names its inputs, fits its column on PostgreSQL, and stays
the key a resumed run finds its batch by."""

from __future__ import annotations

from sudoku_batch.store.models import Batch
from sudoku_batch.store.record import inputs_label

LIMIT = Batch.__table__.c.label.type.length


def test_a_short_list_of_inputs_is_its_own_label() -> None:
    assert inputs_label(["scans/a.pdf", "b.jpg"]) == "scans/a.pdf, b.jpg"


def test_a_long_list_is_cut_to_the_column_and_stays_one_key_per_list() -> None:
    names = [f"/books/spring-2026/volume-{n:03}.pdf" for n in range(40)]
    label = inputs_label(names)
    assert len(label) == LIMIT and label.startswith(names[0])
    assert "40 inputs" in label
    assert inputs_label(list(names)) == label  # a resumed run finds the same batch
    # Lists that share their first 200 characters still get labels of their own.
    assert inputs_label([*names[:-1], "/books/other.pdf"]) != label
