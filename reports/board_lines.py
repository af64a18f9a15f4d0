"""The region borders and diagonals drawn over the review page's board (an SVG on the board's
image, or on a plain grid without one), from the same edges as renders
(``pipeline.region_lines``, drawn by ``pipeline.render.draw_variant_lines``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sudoku_batch.pipeline.geometry import CLASSIC, box_regions
from sudoku_batch.pipeline.region_lines import diagonal_lines, marks_diagonals, region_borders


def board_lines(
    record: dict[str, Any],
    row_lines: Sequence[float],
    col_lines: Sequence[float],
    over_image: bool,
) -> list[dict[str, Any]]:
    """Each line to draw, at the board's lattice lines: ``x1, y1, x2, y2`` and its ``kind``
    (``region-line``, heavy, or ``diagonal-line``). Over the board's own image, as on a render,
    only for a variant other than classic: the print shows a classic grid's boxes. On a plain
    grid every region's borders, the boxes too. The regions are the record's, else its boxes."""
    variant = record.get("variant") or CLASSIC
    if over_image and variant == CLASSIC:
        return []
    size = len(row_lines) - 1
    regions = record.get("regions")
    if regions is None and record.get("box"):
        regions = box_regions(*record["box"])
    edges = []
    if regions is not None and len(regions) == size:
        edges += [(edge, "region-line") for edge in region_borders(regions)]
    if marks_diagonals(variant):
        edges += [(edge, "diagonal-line") for edge in diagonal_lines(size)]
    return [
        {
            "x1": col_lines[c0],
            "y1": row_lines[r0],
            "x2": col_lines[c1],
            "y2": row_lines[r1],
            "kind": kind,
        }
        for ((r0, c0), (r1, c1)), kind in edges
    ]
