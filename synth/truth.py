"""The truth that goes with generated images, and its JSON form.

``truth.json`` maps each generated file's name to ``{"dpi": int | null, "pages": [page...]}``.
A page is ``{"page": 1-based, "width": px, "height": px, "grids": [grid...]}`` with grids in
reading order. A grid is::

    {"size": 9, "box": [box_rows, box_cols],
     "givens":   N rows of N cells: 1..N printed, 0 empty, null blocked,
     "solution": N rows of N cells: 1..N, null blocked,
     "corners":  [[x, y] x 4] TL, TR, BR, BL of the outer border's centre line, in the page's
                 pixels (at "dpi" for PDFs), in the grid's own orientation,
     "shaded":   [[row, col], ...] 0-based cells with a tinted background,
     "font": "DejaVuSans.ttf", "labels": "numbers" | "letters"}

Grid lines are equally spaced between the corners (a homography from the unit square places
every cell).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sudoku_batch.synth.grid_image import Labels
from sudoku_batch.synth.puzzles import GeneratedPuzzle


@dataclass(frozen=True)
class PlacedGrid:
    """One grid as it ended up on an image."""

    generated: GeneratedPuzzle
    corners: np.ndarray = field(repr=False)  # (4, 2) float32, image pixels
    shaded: frozenset[tuple[int, int]]
    font: str
    labels: Labels

    def moved(self, corners: np.ndarray) -> PlacedGrid:
        return PlacedGrid(self.generated, corners, self.shaded, self.font, self.labels)


def grid_truth(grid: PlacedGrid) -> dict:
    shape = grid.generated.puzzle.shape
    return {
        "size": shape.size,
        "box": [shape.box_rows, shape.box_cols],
        "givens": [list(row) for row in grid.generated.puzzle.givens],
        "solution": [list(row) for row in grid.generated.solution],
        "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in grid.corners],
        "shaded": sorted([r, c] for r, c in grid.shaded),
        "font": grid.font,
        "labels": grid.labels,
    }


def page_truth(number: int, width: int, height: int, grids: tuple[PlacedGrid, ...]) -> dict:
    return {
        "page": number,
        "width": width,
        "height": height,
        "grids": [grid_truth(g) for g in grids],
    }


def write_truth(path: Path, files: dict[str, dict]) -> None:
    text = json.dumps(files, indent=1)
    # One line per grid row or corner, rather than one per number, keeps the file readable.
    text = re.sub(r"\[\s+([^\[\]{}]*?)\s+\]", lambda m: "[" + re.sub(r"\s+", " ", m[1]) + "]", text)
    path.write_text(text + "\n")
