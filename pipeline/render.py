"""Draw a solution back onto the original page, in the page's own perspective."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage
from sudoku_batch.pipeline.grid import Grid
from sudoku_batch.pipeline.region_lines import diagonal_lines, marks_diagonals, region_borders

# Solved digits in a blue that stands apart from black or red printing (BGR).
SOLUTION_INK = (200, 80, 0)
# Context kept around the board in the rendered crop, as a share of the board's size.
MARGIN = 0.04
# A variant's region borders and diagonals are drawn this wide, as shares of a cell.
HEAVY_SHARE, THIN_SHARE = 0.08, 0.03


@dataclass(frozen=True)
class PageRegion:
    """The part of a page a render draws on: the board with a margin, and where its top-left
    pixel lies on the page."""

    pixels: np.ndarray = field(repr=False)
    left: int
    top: int


def board_region(page_pixels: np.ndarray, board: BoardImage) -> PageRegion:
    """The region of the page ``render_solution`` draws ``board``'s solution on."""
    x0, y0, x1, y1 = region_window(page_pixels.shape[:2], board.location.corners)
    return PageRegion(page_pixels[y0:y1, x0:x1], x0, y0)


def render_solution(
    region: PageRegion,
    board: BoardImage,
    givens: Grid,
    solution: Grid,
    regions: tuple[tuple[int, ...], ...] | None = None,
    variant: str = "classic",
) -> np.ndarray:
    """The page region holding ``board`` (``board_region``), with the digits the solver filled
    in drawn in place; for a variant other than classic also the regions the solver used, in
    heavy lines over the printed ones, and its diagonals.

    Digits are drawn on a board-sized layer (upright, in the lattice's cells) and that layer is
    warped back through the inverse of the board's homography, so they sit in the photo's own
    perspective, skew and rotation. Only cells that were empty get a digit.
    """
    height, width = board.pixels.shape[:2]
    ink = np.zeros((height, width), np.uint8)
    rows, cols = board.lattice.row_lines, board.lattice.col_lines
    for r, (given_row, solved_row) in enumerate(zip(givens, solution, strict=True)):
        for c, (given, solved) in enumerate(zip(given_row, solved_row, strict=True)):
            if given == 0 and solved:
                _draw_centred(ink, str(solved), rows[r], rows[r + 1], cols[c], cols[c + 1])
    if variant != "classic":
        draw_variant_lines(ink, rows, cols, regions, variant)

    # Only the crop is warped and blended: warping the whole page for one board costs many
    # times more, for the same pixels.
    crop_height, crop_width = region.pixels.shape[:2]
    to_crop = np.array([[1.0, 0.0, -region.left], [0.0, 1.0, -region.top], [0.0, 0.0, 1.0]])
    board_to_crop = to_crop @ np.linalg.inv(board.homography)
    alpha = cv2.warpPerspective(ink, board_to_crop, (crop_width, crop_height))
    pixels = region.pixels
    rendered = cv2.cvtColor(pixels, cv2.COLOR_GRAY2BGR) if pixels.ndim == 2 else pixels.copy()
    # Only the inked pixels are blended (a few percent of the crop): elsewhere the blend gives
    # the page's own pixel back exactly, and blending the whole crop in floats took most of a
    # render's time.
    inked = np.flatnonzero(alpha)
    share = (alpha.ravel()[inked].astype(np.float32) / 255.0)[:, None]
    colour = np.array(SOLUTION_INK, np.float32)
    flat = rendered.reshape(-1, 3)
    blended = flat[inked].astype(np.float32) * (1.0 - share) + colour * share
    flat[inked] = blended.astype(np.uint8)
    return rendered


def draw_variant_lines(
    ink: np.ndarray,
    rows: tuple[float, ...],
    cols: tuple[float, ...],
    regions: tuple[tuple[int, ...], ...] | None,
    variant: str,
) -> None:
    """Region borders (heavy) and, for a diagonal variant, the diagonals (thin) onto a
    board-sized layer, at the lattice's lines."""
    cell = min(np.diff(rows).min(), np.diff(cols).min())
    edges = [(edge, HEAVY_SHARE) for edge in region_borders(regions)] if regions else []
    if marks_diagonals(variant):
        edges += [(edge, THIN_SHARE) for edge in diagonal_lines(len(rows) - 1)]
    for ((r0, c0), (r1, c1)), share in edges:
        start = (round(cols[c0]), round(rows[r0]))
        end = (round(cols[c1]), round(rows[r1]))
        cv2.line(ink, start, end, 255, max(1, round(share * cell)), cv2.LINE_AA)


def _draw_centred(
    ink: np.ndarray, text: str, top: float, bottom: float, left: float, right: float
) -> None:
    cell_height, cell_width = bottom - top, right - left
    font = cv2.FONT_HERSHEY_SIMPLEX
    thickness = max(1, round(cell_height / 18))
    (text_width, text_height), _ = cv2.getTextSize(text, font, 1.0, thickness)
    # Fill ~60% of the cell height, narrower if a two-digit number would not fit.
    scale = min(0.6 * cell_height / text_height, 0.8 * cell_width / text_width)
    (text_width, text_height), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = (
        round(left + (cell_width - text_width) / 2),
        round(top + (cell_height + text_height) / 2),
    )
    cv2.putText(ink, text, origin, font, scale, 255, thickness, cv2.LINE_AA)


def region_window(page_shape: tuple[int, ...], corners: np.ndarray) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 of the region of the board with these corners, with a margin, within a
    page of this (height, width)."""
    side = float(np.ptp(corners, axis=0).max())
    margin = MARGIN * side
    x0, y0 = np.floor(corners.min(axis=0) - margin).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + margin).astype(int)
    height, width = page_shape[:2]
    return max(int(x0), 0), max(int(y0), 0), min(int(x1), width), min(int(y1), height)
