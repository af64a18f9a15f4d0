"""Region borders and diagonals drawn on renders and in the answer-key PDF."""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
from reportlab.lib.pagesizes import A4

from sudoku_batch.pipeline.answer_key_pdf import (
    KeyEntry,
    grid_box,
    layout_for,
    slots,
    write_answer_key_pdf,
)
from sudoku_batch.pipeline.geometry import box_regions
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.region_lines import diagonal_lines, region_borders
from sudoku_batch.pipeline.render import board_region, render_solution
from sudoku_batch.synth.variant_images import random_variant, regions_of
from tests.pipeline.test_render import BOARD_PX, _skewed_board

NINE = GridShape(3, 3)


def _jigsaw():
    return random_variant(np.random.default_rng(2), "jigsaw")


def test_the_borders_of_the_boxes_are_the_box_lines_and_the_frame() -> None:
    borders = set(region_borders(box_regions(3, 3)))
    assert len(borders) == 4 * 9 + 4 * 9  # four lines each way of nine cell edges
    assert ((0, 3), (1, 3)) in borders and ((0, 1), (1, 1)) not in borders
    assert diagonal_lines(9) == [((0, 0), (9, 9)), ((0, 9), (9, 0))]


def _inked_upright(rendered, board, page) -> np.ndarray:
    import cv2

    corners = board.location.corners
    offset = np.maximum(np.floor(corners.min(axis=0) - 0.04 * np.ptp(corners, axis=0).max()), 0)
    shift = np.array([[1, 0, offset[0]], [0, 1, offset[1]], [0, 0, 1]], np.float64)
    upright = cv2.warpPerspective(rendered, board.homography @ shift, (BOARD_PX, BOARD_PX))
    return upright.astype(int).sum(axis=2) < 3 * 230


def test_a_render_draws_a_jigsaws_regions_and_diagonals_over_the_board() -> None:
    page = np.full((600, 640, 3), 255, np.uint8)
    board = _skewed_board(page.shape[:2])
    puzzle = _jigsaw()
    solution = puzzle.solution
    givens = tuple(tuple(v) for v in solution)  # nothing to fill in: only the lines
    region = board_region(page, board)

    classic = render_solution(region, board, givens, solution)
    jigsaw = render_solution(region, board, givens, solution, regions_of(puzzle), "jigsaw+diagonal")

    assert (classic == 255).all()
    inked = _inked_upright(jigsaw, board, page)
    step = BOARD_PX / 9
    for (r0, c0), (r1, c1) in region_borders(regions_of(puzzle)):
        y, x = int((r0 + r1) / 2 * step), int((c0 + c1) / 2 * step)
        if 0 < x < BOARD_PX - 1 and 0 < y < BOARD_PX - 1:
            assert inked[y - 1 : y + 2, x - 1 : x + 2].any()
    assert inked[int(4.5 * step), int(4.5 * step)], "the diagonals cross in the middle"
    regions = regions_of(puzzle)
    inside = [
        (r, c)
        for r in range(9)
        for c in range(8)
        if regions[r][c] == regions[r][c + 1] and r not in (c, c + 1, 8 - c, 7 - c)
    ]
    r, c = inside[0]
    assert not inked[int((r + 0.5) * step), int((c + 1) * step)], "a cell line within a region"


# Dark pixels in a 9 x 9 window at a heavy line: 3 px wide (the 1.5 pt lines at scale 3 are
# 4.5 px, the 0.5 pt ones 1.5 px) times 9.
HEAVY_IN_KEY = 27


def key_border_darkness(path, regions) -> list[int]:
    """The darkness (dark pixels in a 9 x 9 window) at the middle of every border of
    ``regions`` that is no 3x3 box line, in the first grid of the A4 answer key at ``path``."""
    x, bottom, side = grid_box(slots(A4, layout_for(9))[0])
    step = side / 9
    boxes = {(r0, c0, r1, c1) for (r0, c0), (r1, c1) in region_borders(box_regions(3, 3))}
    scale = 3.0
    image = np.asarray(pdfium.PdfDocument(path)[0].render(scale=scale).to_pil().convert("L"))

    def ink_at(r: float, c: float) -> int:
        px = int(round((x + c * step) * scale))
        py = int(round((A4[1] - (bottom + side - r * step)) * scale))
        return int((image[py - 4 : py + 5, px - 4 : px + 5] < 128).sum())

    return [
        ink_at((r0 + r1) / 2, (c0 + c1) / 2)
        for (r0, c0), (r1, c1) in region_borders(regions)
        if (r0, c0, r1, c1) not in boxes
    ]


def test_the_answer_key_draws_a_jigsaws_regions(tmp_path) -> None:
    puzzle = _jigsaw()
    solution = puzzle.solution
    entries = {
        "boxes": KeyEntry("1", solution, NINE),
        "regions": KeyEntry("1", solution, NINE, regions=regions_of(puzzle), variant="jigsaw"),
    }
    darkness = {}
    for name, entry in entries.items():
        path = tmp_path / f"{name}.pdf"
        write_answer_key_pdf([entry], path)
        darkness[name] = key_border_darkness(path, regions_of(puzzle))
    assert min(darkness["regions"]) >= HEAVY_IN_KEY, "every region border is drawn heavy"
    assert max(darkness["boxes"]) < HEAVY_IN_KEY, "the classic key draws those edges thin"
