"""Photos of printed puzzles a person has begun to solve, with truth: pencil marks (two to four
small candidates per cell) and handwritten entries (some wrong), drawn as pen strokes so no
installed font is needed.

Digits are strokes through a few points of a unit box (x right, y down), rounded by corner
cutting, and drawn with a random pen: slant, size, stroke width, colour and a wobble of each
point. Pencil marks sit where solvers put them: each candidate at its place in a 3x3 keypad
of the cell (1 top left, 9 bottom right), or all in a row along the cell's top edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from sudoku_batch.pipeline.grid import GridShape, Puzzle
from sudoku_batch.pipeline.reading import InkKind
from sudoku_batch.synth.degrade import recolour_ink
from sudoku_batch.synth.grid_image import render_grid
from sudoku_batch.synth.photo import PhotoStyle, photograph
from sudoku_batch.synth.unique import unique_puzzle

# Each digit's strokes, through points of a unit box.
STROKES: dict[int, tuple[tuple[tuple[float, float], ...], ...]] = {
    1: (((0.3, 0.22), (0.58, 0.0), (0.58, 1.0)),),
    2: (
        (
            (0.1, 0.25),
            (0.3, 0.03),
            (0.6, 0.0),
            (0.85, 0.18),
            (0.8, 0.45),
            (0.1, 1.0),
            (0.92, 1.0),
        ),
    ),
    3: (
        (
            (0.12, 0.1),
            (0.45, 0.0),
            (0.8, 0.12),
            (0.75, 0.38),
            (0.4, 0.48),
            (0.8, 0.6),
            (0.88, 0.85),
            (0.5, 1.0),
            (0.1, 0.9),
        ),
    ),
    4: (((0.68, 1.0), (0.68, 0.0), (0.08, 0.68), (0.92, 0.68)),),
    5: (
        (
            (0.85, 0.0),
            (0.22, 0.0),
            (0.16, 0.45),
            (0.5, 0.38),
            (0.82, 0.55),
            (0.85, 0.82),
            (0.5, 1.0),
            (0.1, 0.9),
        ),
    ),
    6: (
        (
            (0.78, 0.05),
            (0.45, 0.0),
            (0.18, 0.3),
            (0.12, 0.7),
            (0.3, 0.98),
            (0.65, 0.98),
            (0.85, 0.72),
            (0.65, 0.48),
            (0.3, 0.5),
            (0.14, 0.68),
        ),
    ),
    7: (((0.08, 0.0), (0.92, 0.0), (0.38, 1.0)),),
    8: (
        (
            (0.5, 0.47),
            (0.18, 0.3),
            (0.25, 0.05),
            (0.5, 0.0),
            (0.75, 0.05),
            (0.82, 0.3),
            (0.5, 0.47),
            (0.14, 0.7),
            (0.22, 0.95),
            (0.5, 1.0),
            (0.78, 0.95),
            (0.86, 0.7),
            (0.5, 0.47),
        ),
    ),
    9: (
        (
            (0.84, 0.35),
            (0.55, 0.52),
            (0.22, 0.45),
            (0.15, 0.18),
            (0.45, 0.0),
            (0.8, 0.08),
            (0.86, 0.4),
            (0.75, 0.75),
            (0.55, 1.0),
        ),
    ),
}
# Another hand: a 1 with a flag and foot, an open 4, a crossed 7, a 9 with a straight tail, a
# 2 with a loop at its foot.
OTHER_HAND = {
    **STROKES,
    1: (((0.25, 0.2), (0.55, 0.0), (0.55, 1.0)), ((0.3, 1.0), (0.8, 1.0))),
    2: (
        (
            (0.12, 0.2),
            (0.45, 0.0),
            (0.85, 0.2),
            (0.55, 0.65),
            (0.15, 1.0),
            (0.35, 0.85),
            (0.6, 0.95),
            (0.9, 0.98),
        ),
    ),
    4: (((0.2, 0.0), (0.1, 0.6), (0.9, 0.6)), ((0.7, 0.2), (0.7, 1.0))),
    7: (((0.08, 0.05), (0.92, 0.0), (0.45, 1.0)), ((0.35, 0.5), (0.85, 0.5))),
    9: (
        (
            (0.85, 0.4),
            (0.5, 0.5),
            (0.18, 0.35),
            (0.3, 0.02),
            (0.75, 0.05),
            (0.85, 0.3),
            (0.85, 1.0),
        ),
    ),
}
# A third hand, rounder: a 1 as a bare stroke, a 3 with a flat top, a closed 4 with a slanted
# side, a 5 with a lifted flag, a 6 and a 9 as a loop with a curved stroke, a 7 with a bent
# stem, an 8 as two loops drawn apart.
ROUND_HAND = {
    **STROKES,
    1: (((0.5, 0.0), (0.48, 1.0)),),
    3: (((0.15, 0.02), (0.85, 0.02), (0.4, 0.42), (0.85, 0.62), (0.75, 0.95), (0.15, 0.9)),),
    4: (((0.6, 0.0), (0.1, 0.65), (0.9, 0.65)), ((0.65, 0.3), (0.65, 1.0))),
    5: (
        ((0.2, 0.0), (0.15, 0.45), (0.6, 0.4), (0.85, 0.7), (0.55, 1.0), (0.12, 0.9)),
        ((0.2, 0.02), (0.85, 0.0)),
    ),
    6: (
        ((0.7, 0.0), (0.2, 0.45), (0.15, 0.85), (0.5, 1.0), (0.82, 0.75), (0.5, 0.5), (0.18, 0.7)),
    ),
    7: (((0.1, 0.02), (0.9, 0.0), (0.6, 0.45), (0.45, 1.0)),),
    8: (
        ((0.5, 0.45), (0.2, 0.25), (0.5, 0.0), (0.8, 0.25), (0.5, 0.45)),
        ((0.5, 0.45), (0.15, 0.75), (0.5, 1.0), (0.85, 0.75), (0.5, 0.45)),
    ),
    9: (((0.8, 0.25), (0.5, 0.0), (0.2, 0.25), (0.5, 0.5), (0.82, 0.3), (0.7, 1.0)),),
}
HANDS = (STROKES, OTHER_HAND, ROUND_HAND)
# Entries as tall as the print (a share of the cell).
PRINT_HEIGHT = (0.54, 0.62)
# A digit's box is this share of its height wide.
DIGIT_ASPECT = 0.62
PENS_BGR = ((150, 60, 20), (40, 40, 40), (170, 90, 40), (90, 40, 30))  # blue and black pens
PENCIL_BGR = ((105, 105, 105), (120, 118, 115), (90, 90, 92))  # graphite
CELL_PX = 64
MARKED_STYLE = PhotoStyle(max_rotation_deg=8.0)
# Pencil marks' height, as a share of the cell: in a keypad, and in a row along the top.
KEYPAD_HEIGHT = (0.16, 0.22)
ROW_HEIGHT = (0.24, 0.32)


@dataclass(frozen=True)
class MarkedPhoto:
    """A photo of a printed puzzle with a solver's marks, and its truth: ``puzzle`` is the
    printed puzzle (unique solution ``solution``); ``ink`` the kind of every playable cell;
    ``written`` each handwritten entry's digit; ``candidates`` each pencilled cell's."""

    image: np.ndarray = field(repr=False)
    corners: np.ndarray = field(repr=False)
    puzzle: Puzzle
    solution: tuple[tuple[int, ...], ...]
    ink: dict[tuple[int, int], InkKind]
    written: dict[tuple[int, int], int]
    candidates: dict[tuple[int, int], tuple[int, ...]]


def marked_photo(
    rng: np.random.Generator,
    pencilled: tuple[int, int] = (5, 12),
    handwritten: tuple[int, int] = (4, 12),
    wrong_share: float = 0.3,
    style: PhotoStyle = MARKED_STYLE,
    written_height: tuple[float, float] = (0.5, 0.85),
) -> MarkedPhoto:
    """A 9x9 puzzle printed in a random font, some of its empty cells pencilled (``pencilled``:
    the range of their count) and some written in (``handwritten``; a ``wrong_share`` of
    them a wrong digit, ``written_height`` the range of their height as a share of the cell;
    print is about 0.58), photographed."""
    page = _printed(rng)
    image, solution, empty, origin, ink = (
        page.image,
        page.solution,
        page.empty,
        page.origin,
        page.ink,
    )
    order = rng.permutation(len(empty))
    counts = (
        int(rng.integers(pencilled[0], pencilled[1] + 1)),
        int(rng.integers(handwritten[0], handwritten[1] + 1)),
    )
    pencil_cells = [empty[i] for i in order[: counts[0]]]
    written_cells = [empty[i] for i in order[counts[0] : counts[0] + counts[1]]]

    pen = PENS_BGR[int(rng.integers(len(PENS_BGR)))]
    pen_width = float(rng.uniform(0.035, 0.07)) * CELL_PX
    slant = float(rng.uniform(-0.1, 0.3))
    written = _write_entries(
        image,
        written_cells,
        solution,
        origin,
        rng,
        Pen(pen, pen_width, slant),
        written_height,
        wrong_share,
    )
    ink.update({pos: InkKind.HANDWRITTEN for pos in written})

    pencil = PENCIL_BGR[int(rng.integers(len(PENCIL_BGR)))]
    keypad = bool(rng.random() < 0.5)
    candidates: dict[tuple[int, int], tuple[int, ...]] = {}
    for r, c in pencil_cells:
        right = int(solution[r, c])
        count = int(rng.integers(2, 5))
        others = rng.choice([d for d in range(1, 10) if d != right], size=count, replace=False)
        marks = sorted({right, *others[: count - 1]} if rng.random() < 0.75 else set(others))
        # Keypad candidates stay small enough to leave a gap between rows.
        height = float(rng.uniform(*(KEYPAD_HEIGHT if keypad else ROW_HEIGHT))) * CELL_PX
        width = float(rng.uniform(0.015, 0.03)) * CELL_PX + 0.8
        for index, digit in enumerate(marks):
            if keypad:
                kx, ky = (digit - 1) % 3, (digit - 1) // 3
                place = (0.2 + 0.3 * kx, 0.2 + 0.3 * ky)
            else:
                place = (0.2 + 0.22 * index, 0.22)
            centre = (origin + (c + place[0]) * CELL_PX, origin + (r + place[1]) * CELL_PX)
            draw_digit(image, int(digit), centre, height, slant, pencil, width, rng)
        candidates[r, c] = tuple(int(d) for d in marks)
        ink[r, c] = InkKind.PENCIL
    return page.photographed(rng, style, written, candidates)


@dataclass(frozen=True)
class Pen:
    """How a solver writes: ink colour, stroke width (pixels), slant (x shift per unit of
    height, rightwards), hand (each digit's strokes) and pressure."""

    colour: tuple[int, int, int]
    width: float
    slant: float
    hand: dict = field(default_factory=lambda: STROKES)
    # How much the stroke's width swells and thins along it, as a share of its width (a
    # fountain pen, or a ballpoint pressed harder in the curves).
    pressure: float = 0.0


def written_photo(
    rng: np.random.Generator,
    pen: Pen,
    entries: tuple[int, int] = (6, 12),
    wrong_share: float = 0.3,
    written_height: tuple[float, float] = PRINT_HEIGHT,
    print_bgr: tuple[int, int, int] | None = None,
    style: PhotoStyle = MARKED_STYLE,
    font: str | None = None,
) -> MarkedPhoto:
    """A 9x9 puzzle printed in ``font`` (a file name of synth.fonts; its default when None; in
    ``print_bgr``, black when None) with entries written in with ``pen`` (``entries``: the
    range of their count), as tall as the print by default, photographed; no pencil marks."""
    page = _printed(rng, print_bgr, font)
    empty = page.empty
    count = int(rng.integers(entries[0], entries[1] + 1))
    cells = [empty[i] for i in rng.permutation(len(empty))[:count]]
    written = _write_entries(
        page.image, cells, page.solution, page.origin, rng, pen, written_height, wrong_share
    )
    page.ink.update({pos: InkKind.HANDWRITTEN for pos in written})
    return page.photographed(rng, style, written, {})


def candidates_photo(
    rng: np.random.Generator,
    lone: tuple[int, int] = (3, 8),
    pairs: tuple[int, int] = (2, 5),
    style: PhotoStyle = MARKED_STYLE,
) -> MarkedPhoto:
    """A 9x9 puzzle printed in a random font with candidates in some of its empty cells as
    solvers also write them, photographed: ``lone`` (the range of their count) cells hold one
    candidate in a corner, ``pairs`` cells two candidates side by side nearly as tall as the
    print (about 0.58 of the cell), the first against the cell's left side, joined up or
    not. In pen or pencil; nothing is written in."""
    page = _printed(rng)
    image, empty, origin, ink = page.image, page.empty, page.origin, page.ink
    order = rng.permutation(len(empty))
    counts = (
        int(rng.integers(lone[0], lone[1] + 1)),
        int(rng.integers(pairs[0], pairs[1] + 1)),
    )
    lone_cells = [empty[i] for i in order[: counts[0]]]
    pair_cells = [empty[i] for i in order[counts[0] : counts[0] + counts[1]]]
    colours = PENCIL_BGR + PENS_BGR
    colour = colours[int(rng.integers(len(colours)))]
    width = float(rng.uniform(0.025, 0.05)) * CELL_PX
    slant = float(rng.uniform(-0.1, 0.3))
    candidates: dict[tuple[int, int], tuple[int, ...]] = {}
    for r, c in lone_cells:
        digit = int(rng.integers(1, 10))
        height = float(rng.uniform(0.3, 0.45)) * CELL_PX
        # Any corner, its glyph clear of the cell's lines.
        across, down = rng.choice([-1, 1], size=2)
        reach = 0.5 - 0.07 - height / CELL_PX / 2
        place = (0.5 + across * float(rng.uniform(0.2, reach)), 0.5 + down * reach)
        centre = (origin + (c + place[0]) * CELL_PX, origin + (r + place[1]) * CELL_PX)
        draw_digit(image, digit, centre, height, slant, colour, width, rng)
        candidates[r, c] = (digit,)
        ink[r, c] = InkKind.PENCIL
    for r, c in pair_cells:
        marks = sorted(int(d) for d in rng.choice(range(1, 10), size=2, replace=False))
        height = float(rng.uniform(0.48, 0.56)) * CELL_PX
        glyph = DIGIT_ASPECT * height / CELL_PX
        left = float(rng.uniform(0.03, 0.08)) + glyph / 2
        step = glyph * float(rng.uniform(0.85, 1.1))
        middle = 0.5 + float(rng.uniform(-0.1, 0.0))
        for index, digit in enumerate(marks):
            centre = (
                origin + (c + left + index * step) * CELL_PX,
                origin + (r + middle) * CELL_PX,
            )
            draw_digit(image, digit, centre, height, slant, colour, width, rng)
        candidates[r, c] = tuple(marks)
        ink[r, c] = InkKind.PENCIL
    return page.photographed(rng, style, {}, candidates)


@dataclass
class _PrintedPage:
    """A 9x9 puzzle printed on a page a solver then marks: the image drawn on, the empty
    cells, the grid's top-left corner (pixels) and every playable cell's kind so far."""

    puzzle: Puzzle
    solution: np.ndarray
    image: np.ndarray
    corners: np.ndarray
    empty: list[tuple[int, int]]
    ink: dict[tuple[int, int], InkKind]

    @property
    def origin(self) -> float:
        return float(self.corners[0][0])

    def photographed(
        self,
        rng: np.random.Generator,
        style: PhotoStyle,
        written: dict[tuple[int, int], int],
        candidates: dict[tuple[int, int], tuple[int, ...]],
    ) -> MarkedPhoto:
        photo = photograph(self.image, self.corners, rng, style)
        return MarkedPhoto(
            photo.image,
            photo.corners,
            self.puzzle,
            tuple(tuple(int(v) for v in row) for row in self.solution),
            self.ink,
            written,
            candidates,
        )


def _printed(
    rng: np.random.Generator,
    print_bgr: tuple[int, int, int] | None = None,
    font: str | None = None,
) -> _PrintedPage:
    """A unique puzzle with 24-31 givens printed in ``font`` (synth.fonts' default when None;
    in ``print_bgr``, black when None)."""
    generated = unique_puzzle(GridShape(3, 3), rng, givens=int(rng.integers(24, 32)))
    puzzle = generated.puzzle
    grid = render_grid(puzzle, cell_px=CELL_PX, font=font, rng=rng)
    image = grid.image if print_bgr is None else recolour_ink(grid.image, print_bgr)
    empty = [(r, c) for r in range(9) for c in range(9) if puzzle.givens[r][c] == 0]
    ink = {pos: InkKind.EMPTY for pos in empty}
    ink.update({(r, c): InkKind.GIVEN for r in range(9) for c in range(9) if puzzle.givens[r][c]})
    return _PrintedPage(
        puzzle, np.array(generated.solution, dtype=int), image.copy(), grid.corners, empty, ink
    )


def _write_entries(
    image: np.ndarray,
    cells: list[tuple[int, int]],
    solution: np.ndarray,
    origin: float,
    rng: np.random.Generator,
    pen: Pen,
    written_height: tuple[float, float],
    wrong_share: float = 0.3,
) -> dict[tuple[int, int], int]:
    """Write a digit in each of ``cells`` (a ``wrong_share`` of them not the solution's), each
    a random height within ``written_height`` of the cell; the digits written."""
    written: dict[tuple[int, int], int] = {}
    for r, c in cells:
        right = int(solution[r, c])
        digit = right
        if rng.random() < wrong_share:
            digit = int(rng.choice([d for d in range(1, 10) if d != right]))
        height = float(rng.uniform(*written_height)) * CELL_PX
        centre = (
            origin + (c + 0.5 + rng.uniform(-0.08, 0.08)) * CELL_PX,
            origin + (r + 0.5 + rng.uniform(-0.06, 0.06)) * CELL_PX,
        )
        draw_digit(
            image,
            digit,
            centre,
            height,
            pen.slant,
            pen.colour,
            pen.width,
            rng,
            pen.hand,
            pen.pressure,
        )
        written[r, c] = digit
    return written


def draw_digit(
    image: np.ndarray,
    digit: int,
    centre: tuple[float, float],
    height: float,
    slant: float,
    colour: tuple[int, int, int],
    width: float,
    rng: np.random.Generator,
    hand: dict = STROKES,
    pressure: float = 0.0,
) -> None:
    """Draw ``digit`` as pen strokes (``hand``: each digit's) ``height`` pixels tall around
    ``centre``, leaning right by ``slant`` (x shift per unit of height), each point wobbled a
    little; with ``pressure``, each stroke swells from thin ends to its middle by that share
    of ``width``."""
    scale = 8  # cv2 draws at sub-pixel positions given as fixed point with 3 bits
    for stroke in hand[digit]:
        points = np.array(stroke, dtype=np.float64)
        points += rng.normal(0.0, 0.025, points.shape)
        points = _rounded(points)
        x = (points[:, 0] - 0.5) * DIGIT_ASPECT * height + (0.5 - points[:, 1]) * slant * height
        y = (points[:, 1] - 0.5) * height
        pixels = np.round(np.stack([centre[0] + x, centre[1] + y], axis=1) * scale)
        pixels = pixels.astype(np.int32)
        if pressure <= 0:
            _polyline(image, pixels, colour, width)
            continue
        along = np.linspace(0.0, np.pi, len(pixels) - 1)
        for index, swell in enumerate(np.sin(along)):
            thickness = width * (1.0 - pressure + 2.0 * pressure * swell)
            _polyline(image, pixels[index : index + 2], colour, thickness)


def _polyline(
    image: np.ndarray, pixels: np.ndarray, colour: tuple[int, int, int], width: float
) -> None:
    cv2.polylines(image, [pixels], False, colour, max(1, int(round(width))), cv2.LINE_AA, shift=3)


def _rounded(points: np.ndarray, rounds: int = 2) -> np.ndarray:
    """Chaikin's corner cutting: the stroke's corners rounded, its ends kept."""
    for _ in range(rounds):
        if len(points) < 3:
            return points
        first, second = points[:-1], points[1:]
        cut = np.empty((2 * len(first), 2))
        cut[0::2] = 0.75 * first + 0.25 * second
        cut[1::2] = 0.25 * first + 0.75 * second
        points = np.vstack([points[:1], cut, points[-1:]])
    return points
