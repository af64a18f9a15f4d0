"""Straighten a board whose printed lines bend (a curled page, a lens): a mesh warp that moves
every traced crossing of its lines to where an even grid has it.

A homography makes straight lines straight; a page that curls bends them, by up to a third of a
cell at a corner on the photos, and the lattice's straight lines then cut the cells there. The
crossings are traced on the warped board (``pipeline.vision.gridlines``); their offsets from
the even grid are interpolated bilinearly across the cells, and the page is sampled again through
the homography at the offset places, so the board's lines fall on the even lattice.

Only lines that the print follows are moved so. A bend moves the digits with their lines;
lines printed off their places (a misregistered plate, lines ruled apart from the type) move
alone, and warping them onto the even grid would stretch and squeeze the digits between them,
which the ink's sorting then takes for handwriting. Such a board is left as the homography
warps it, its lattice where its lines run (``pipeline.recognise.ink_marks.print_off_lines``
tells the two apart by the digits' heights).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, Lattice
from sudoku_batch.pipeline.recognise.ink_marks import print_off_lines
from sudoku_batch.pipeline.vision.gridlines import traced_crossings
from sudoku_batch.pipeline.vision.surround import Surround, surround

# Lines off the even grid by less than this share of a cell everywhere are left as they are:
# the cells stage trims more than that from each side of a cell.
STRAIGHT_ENOUGH = 0.1
# The board is warped again with this margin (cells) so that its border lines are whole.
MARGIN_CELLS = 0.3
# A crossing further off than this share of a cell is a line traced onto something else; the
# homography's place is kept for it.
MAX_BEND = 0.4
# A page bends its lines alike: a crossing whose offset is further than this share of a cell
# from the smooth run of its neighbours' (a quadratic along the row of lines it belongs to) is
# a line traced onto the strokes of the digits beside it, and takes that run's offset instead.
# A curl moves neighbouring lines apart by a few hundredths of a cell (at most a third of a
# cell at a corner, over the whole board); a trace caught by a bold digit's stem, by a fifth
# to two fifths.
OFF_NEIGHBOURS = 0.15
# The run of the neighbours is fitted from this many crossings or more.
MIN_NEIGHBOURS = 4
# Whether the print follows its lines is asked only where two neighbouring lines lie this
# share of a cell closer or further apart than the even grid has them: a warp that moves
# them less stretches no digit by more than one font's digits differ in height (a curl moves
# them by a few hundredths; lines printed off their places, by a tenth to a quarter).
UNEVEN_SPANS = 0.1


def straightened(pixels: np.ndarray, board: BoardImage) -> BoardImage:
    """The board warped again so that its traced lines lie on an even lattice, or the board as
    it is when its lines are straight enough (or could not be traced).

    The new board keeps the homography: it maps page pixels to board pixels up to the bend,
    which is what drawing back onto the page needs.
    """
    n = board.shape.size
    side = board.pixels.shape[0]
    cell = side / n
    around = surround(pixels, board, MARGIN_CELLS, lines_only=True)
    offset_x, offset_y, trusted = _bends(around, board)
    if np.hypot(offset_x, offset_y).max() < STRAIGHT_ENOUGH * cell:
        if around.filled:
            # The lattice's profile of the ink takes in the band of shade beside a line,
            # which pulls it into a shaded box; the traced strokes are the lines alone.
            return replace(board, lattice=_traced_lattice(board, offset_x, offset_y, trusted))
        return board
    traced = _traced_lattice(board, offset_x, offset_y, trusted)
    spans = np.concatenate([np.diff(traced.row_lines), np.diff(traced.col_lines)])
    if np.abs(spans - cell).max() >= UNEVEN_SPANS * cell:
        gray = board.pixels
        gray = cv2.cvtColor(gray, cv2.COLOR_BGR2GRAY) if gray.ndim == 3 else gray
        if print_off_lines(gray, traced):
            return replace(board, lattice=traced)
    places = np.arange(side, dtype=np.float32)
    source_x = places[None, :] + _spread(offset_x, places / cell)
    source_y = places[:, None] + _spread(offset_y, places / cell)
    # Through the homography back onto the page, as cv2.warpPerspective samples (single
    # precision: a hundredth of a pixel is plenty).
    back = np.linalg.inv(board.homography).astype(np.float32)
    depth = back[2, 0] * source_x + back[2, 1] * source_y + back[2, 2]
    page_x = (back[0, 0] * source_x + back[0, 1] * source_y + back[0, 2]) / depth
    page_y = (back[1, 0] * source_x + back[1, 1] * source_y + back[1, 2]) / depth
    pixels_out = cv2.remap(pixels, page_x, page_y, cv2.INTER_LINEAR)
    even = tuple(np.arange(n + 1) * cell)
    lattice = Lattice(board.shape, even, even, board.lattice.box_lines)
    return BoardImage(board.location, pixels_out, board.homography, lattice)


def _bends(around: Surround, board: BoardImage) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How far (board pixels) each crossing of the board's lines lies from the even grid,
    across and down, (lines x lines) each: zero where a line could not be traced or was traced
    onto something else; and where it was traced (True)."""
    n = board.shape.size
    side = board.pixels.shape[0]
    cell = side / n
    rows, cols, xs, ys = traced_crossings(around, from_corners=around.filled)
    xs, ys = xs - around.margin, ys - around.margin
    even = np.arange(n + 1) * cell
    offset_x = np.zeros((n + 1, n + 1))
    offset_y = np.zeros((n + 1, n + 1))
    traced = np.zeros((n + 1, n + 1), bool)
    if rows and cols:
        offset_x[np.ix_(rows, cols)] = xs - even[cols][None, :]
        offset_y[np.ix_(rows, cols)] = ys - even[rows][:, None]
        traced[np.ix_(rows, cols)] = True
    wild = np.hypot(offset_x, offset_y) > MAX_BEND * cell
    offset_x[wild] = offset_y[wild] = 0.0
    # A vertical line's offset across is compared with its neighbours' along a row of
    # crossings, a horizontal line's down a column.
    offset_x = _along_neighbours(offset_x, traced & ~wild, OFF_NEIGHBOURS * cell)
    offset_y = _along_neighbours(offset_y.T, (traced & ~wild).T, OFF_NEIGHBOURS * cell).T
    return offset_x, offset_y, traced & ~wild


def _traced_lattice(
    board: BoardImage, offset_x: np.ndarray, offset_y: np.ndarray, trusted: np.ndarray
) -> Lattice:
    """The board's lattice with each line that was traced where it runs on average: the
    traced strokes are the lines themselves, while the lattice's profile of the board's ink
    takes in what lies beside a line (a shaded box's edge, pulling it into the box)."""
    cell = board.pixels.shape[0] / board.shape.size
    rows = _traced_places(board.lattice.row_lines, offset_y, trusted, cell)
    cols = _traced_places(board.lattice.col_lines, offset_x.T, trusted.T, cell)
    return replace(board.lattice, row_lines=rows, col_lines=cols)


def _traced_places(
    measured: tuple[float, ...], offsets: np.ndarray, trusted: np.ndarray, cell: float
) -> tuple[float, ...]:
    """Each line's mean traced place (its offsets and which are trusted one row per line), or
    its measured place where none was traced."""
    return tuple(
        i * cell + float(line[kept].mean()) if kept.any() else old
        for i, (old, line, kept) in enumerate(zip(measured, offsets, trusted, strict=True))
    )


def _along_neighbours(offsets: np.ndarray, trusted: np.ndarray, tolerance: float) -> np.ndarray:
    """Offsets (crossings, a row of them per row) with each trusted one that strays more than
    ``tolerance`` from a quadratic through the rest of its row replaced by that quadratic's
    value; the worst is dropped first, and the fit made again."""
    result = offsets.copy()
    places = np.arange(offsets.shape[1], dtype=float)
    for row, trusted_row in zip(result, trusted, strict=True):
        keep = trusted_row.copy()
        if keep.sum() <= MIN_NEIGHBOURS:
            continue
        while True:
            fit = np.polyfit(places[keep], row[keep], 2)
            stray = np.where(keep, np.abs(np.polyval(fit, places) - row), 0.0)
            worst = int(np.argmax(stray))
            if stray[worst] <= tolerance or keep.sum() <= MIN_NEIGHBOURS:
                break
            keep[worst] = False
        dropped = trusted_row & ~keep
        row[dropped] = np.polyval(fit, places[dropped])
    return result


def _spread(offsets: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Offsets given at the crossings, (lines x lines), interpolated bilinearly to every pixel
    (``at``: each pixel's place in cells). Single precision, and no matrix products (their
    threads cost more than the sums)."""
    n = offsets.shape[0] - 1
    lines = np.arange(n + 1)
    along = np.stack([np.interp(at, lines, row) for row in offsets]).astype(np.float32)
    low = np.minimum(at.astype(int), n - 1)
    share = (at - low).astype(np.float32)[:, None]
    return (1 - share) * along[low] + share * along[low + 1]
