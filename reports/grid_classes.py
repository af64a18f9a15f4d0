"""The CSS classes that draw a grid's regions in HTML (the review page, the book report):
heavy borders between cells of different regions, and the cells of a diagonal variant's
diagonals. Classes rather than inline styles: the review pages' policy forbids inline style."""

from __future__ import annotations

from typing import Any

from sudoku_batch.pipeline.geometry import CLASSIC, box_regions
from sudoku_batch.pipeline.region_lines import marks_diagonals


def cell_classes(record: dict[str, Any]) -> list[list[str]]:
    """Per cell of a puzzle record, its classes: ``region-right`` / ``region-bottom`` where the
    next cell right / below is in another region, ``diagonal`` on a diagonal variant's
    diagonals. The regions are the record's (a classic grid's are its boxes), else its boxes."""
    regions = record.get("regions")
    if regions is None and record.get("box"):
        regions = box_regions(*record["box"])
    if regions is None:
        return []
    n = len(regions)
    diagonals = marks_diagonals(record.get("variant") or CLASSIC)
    rows = []
    for r in range(n):
        row = []
        for c in range(n):
            classes = []
            if c + 1 < n and regions[r][c] != regions[r][c + 1]:
                classes.append("region-right")
            if r + 1 < n and regions[r][c] != regions[r + 1][c]:
                classes.append("region-bottom")
            if diagonals and (r == c or r + c == n - 1):
                classes.append("diagonal")
            row.append(" ".join(classes))
        rows.append(row)
    return rows
