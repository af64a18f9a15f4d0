"""What the vision stages find on a page: boards, their lattice, and their cells."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from sudoku_batch.pipeline.grid import GridShape


@dataclass(frozen=True)
class PageImage:
    """One raster page: a photo, a scan, or a rasterised PDF page (BGR, uint8)."""

    source: str  # the input path as given, or "archive.zip/inner/path"
    page: int  # 1-based
    pixels: np.ndarray = field(repr=False)
    damaged: str | None = None  # the decoder's warning (pipeline.ingest.damage); None: intact


@dataclass(frozen=True)
class BoardLocation:
    """Where a board sits on its page: four corners TL, TR, BR, BL in page pixels (x, y).

    ``survey`` is the lattice that finding the board measured on its survey warp (see
    ``pipeline.vision.rectify.survey_board``) at exactly these corners, so rectifying need not
    measure it again; None when the corners come from elsewhere. ``page_size``: (height,
    width) of the page it was found on, None when unknown; ``page_damage``: the decoder's
    warning when that page's file is damaged (``pipeline.ingest.damage``).
    """

    corners: np.ndarray = field(repr=False)  # shape (4, 2), float32
    survey: Lattice | None = field(default=None, repr=False, compare=False)
    page_size: tuple[int, int] | None = None
    page_damage: str | None = None


@dataclass(frozen=True)
class Lattice:
    """The grid lines of a rectified board, in board pixels.

    ``row_lines`` and ``col_lines`` each hold N+1 positions, top/left edge first, so cell (r, c)
    spans row_lines[r]..row_lines[r+1] vertically. They follow the printed lines rather than
    equal slices, so a slightly warped page still yields tight cells.

    ``box_lines`` is False when no line printed thicker than the others, so the box shape is
    the size's conventional one (``GridShape.square``) rather than measured.
    """

    shape: GridShape
    row_lines: tuple[float, ...]
    col_lines: tuple[float, ...]
    box_lines: bool = True


@dataclass(frozen=True)
class BoardImage:
    """A board warped to a fronto-parallel square, with the warp that made it.

    ``homography`` maps page pixels to board pixels; its inverse draws back onto the page. A
    board whose printed lines bend (a curled page) is straightened beyond it
    (``pipeline.vision.straighten``): there the homography places a point within the bend, a few
    tenths of a cell at most, of where the board shows it.
    """

    location: BoardLocation
    pixels: np.ndarray = field(repr=False)  # BGR, uint8, square
    homography: np.ndarray = field(repr=False)  # 3x3 float64, page -> board
    lattice: Lattice

    @property
    def shape(self) -> GridShape:
        return self.lattice.shape


class CellKind(StrEnum):
    EMPTY = "empty"  # a playable cell with nothing printed in it
    GIVEN = "given"  # a playable cell with a printed digit
    BLOCKED = "blocked"  # a solid cell that takes no digit


@dataclass(frozen=True)
class CellImage:
    """One cell of a board: its place and its kind (the recogniser reads givens from the board
    itself, so no crop travels with the cell). ``confidence`` is how sure an empty cell is
    empty (a given's comes from the recogniser; a blocked cell has none)."""

    row: int  # 0-based
    col: int  # 0-based
    kind: CellKind
    confidence: float | None = None


@dataclass(frozen=True)
class RectifiedBoard:
    """A board as the rectify step leaves it: warped, measured, and its cells sorted once."""

    board: BoardImage
    cells: tuple[CellImage, ...]  # row-major
