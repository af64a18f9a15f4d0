"""The regions of a board (classic boxes or a jigsaw's irregular regions), read from the weight
of each cell edge's printed line.

Each edge between two neighbouring cells is measured across its middle: the darkness of its
line summed across it, as a share of the paper (or fill) on either side, so blur, light and
coloured or grey fills leave it alone. The board's own weights split into light cell lines and
heavy region lines (on the log scale, Otsu's split). The regions are the partition into N
connected regions of N cells that disagrees least with the edges' weights: the parts the heavy
edges cut the board into, the same after flipping the few least certain edges, or the classic
p x q boxes. A board without heavier lines has the regions its fills show (neighbouring cells
alike or not), when they are N regions of N cells, else its lattice's boxes.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from sudoku_batch.pipeline.board import BoardImage, Lattice
from sudoku_batch.pipeline.geometry import DIAGONAL, Regions, box_regions, variant_name
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.vision.diagonals import cell_colours, has_diagonals

# An edge's line is measured over the middle of the edge (clear of the crossings at its ends)
# and within this share of a cell either side of it: all of a blurred heavy line, short of the
# digits in the cells beside it.
EDGE_MIDDLE = 0.5
EDGE_REACH = 0.2
# The paper beside a line is read in the outer share of the reach on each side, at this
# percentile (above a digit's stroke that reaches in).
PAPER_SHARE = 0.35
PAPER_PERCENTILE = 80
# Heavy lines weigh at least this many times the light ones (log scale: the two groups'
# means); below, the board prints no region lines and keeps its lattice's boxes.
MIN_HEAVY_RATIO = 1.4
# Fills of different regions (a board that prints its regions by fill alone) differ by at
# least this share of their brightness; the split is tried in this many of the widest gaps.
FILL_CONTRAST = 0.06
FILL_SPLITS = 3
# The partition is searched by flipping up to FLIP_DEPTH of the FLIP_POOL least certain edges.
FLIP_POOL = 10
FLIP_DEPTH = 3
# Regions are doubtful when the next likeliest partition disagrees with the edges less than
# three times as much as they do.
DOUBTFUL_BELOW = 0.5


@dataclass(frozen=True)
class RegionsReading:
    """A board's regions (N x N region numbers 0..N-1, numbered in reading order of each
    region's first cell), its variant (``classic``, ``jigsaw``, ``diagonal``,
    ``jigsaw+diagonal``) and how certain the regions are: 1 when the edges' weights agree
    with them and with no other partition, near 0 when another partition fits the weights
    about as well (then the reading needs a look)."""

    regions: Regions
    variant: str
    certainty: float


@dataclass(frozen=True)
class EdgeWeights:
    """The measured line weight of every interior cell edge, in cell widths of full ink:
    ``right[r][c]`` between cells (r, c) and (r, c+1), ``below[r][c]`` between (r, c) and
    (r+1, c)."""

    right: np.ndarray  # (N, N-1)
    below: np.ndarray  # (N-1, N)


def read_regions(board: BoardImage) -> RegionsReading:
    """The regions and variant of an upright rectified board."""
    gray = _gray(board.pixels)
    lattice = board.lattice
    n = lattice.shape.size
    diagonal = has_diagonals(board.pixels, lattice)
    weights = edge_weights(gray, lattice)
    margins = _heavy_margins(weights)
    if margins is None:
        # No heavier lines: the regions may be told by their fills alone.
        boxes = box_regions(lattice.shape.box_rows, lattice.shape.box_cols)
        regions, certainty = _fill_regions(board.pixels, lattice) or (boxes, 1.0)
    else:
        regions, certainty = _likeliest_partition(n, margins)
    jigsaw = regions not in {box_regions(s.box_rows, s.box_cols) for s in _box_shapes(n)}
    return RegionsReading(regions, variant_name(jigsaw, diagonal), certainty)


def read_shape(lattice_shape: GridShape, read: RegionsReading) -> GridShape:
    """The grid's shape as read: the lattice's box shape, or the boxes the regions are (a 6x6
    measured 2x3 whose heavy lines draw 3x2 boxes) when they are not in doubt, or a jigsaw of
    the regions; with the diagonals when the variant marks them."""
    diagonals = DIAGONAL in read.variant.split("+")
    for shape in [lattice_shape, *_box_shapes(lattice_shape.size)]:
        if read.regions == box_regions(shape.box_rows, shape.box_cols):
            # Boxes read in doubt (lines alike but for a pixel of rendering) leave the shape
            # to the lattice, and to the readings when they contradict it (remeasure).
            if read.certainty < DOUBTFUL_BELOW:
                shape = lattice_shape
            return GridShape(shape.box_rows, shape.box_cols, diagonals=diagonals)
    return GridShape(lattice_shape.box_rows, lattice_shape.box_cols, read.regions, diagonals)


def edge_weights(gray: np.ndarray, lattice: Lattice) -> EdgeWeights:
    """Every interior edge's line weight (``EdgeWeights``)."""
    rows, cols = lattice.row_lines, lattice.col_lines
    n = lattice.shape.size
    right = np.zeros((n, n - 1))
    below = np.zeros((n - 1, n))
    for r in range(n):
        for c in range(n - 1):
            right[r, c] = _line_weight(gray, cols[c + 1], rows[r], rows[r + 1], vertical=True)
    for r in range(n - 1):
        for c in range(n):
            below[r, c] = _line_weight(gray, rows[r + 1], cols[c], cols[c + 1], vertical=False)
    return EdgeWeights(right, below)


def _line_weight(gray: np.ndarray, at: float, start: float, end: float, vertical: bool) -> float:
    """The darkness of the line at ``at`` (x for a vertical edge) between ``start`` and
    ``end`` along it, summed across it, in cell widths of full ink."""
    cell = end - start
    reach = EDGE_REACH * cell
    lo, hi = int(round(at - reach)), int(round(at + reach)) + 1
    inset = (1 - EDGE_MIDDLE) / 2 * cell
    a, b = int(round(start + inset)), int(round(end - inset))
    limit = gray.shape[1] if vertical else gray.shape[0]
    lo, hi = max(lo, 0), min(hi, limit)
    strip = gray[a:b, lo:hi] if vertical else gray[lo:hi, a:b].T
    if strip.size == 0 or strip.shape[1] < 3:
        return 0.0
    strip = strip.astype(np.float32)
    profile = np.median(strip, axis=0)
    side = max(1, int(round(PAPER_SHARE * strip.shape[1] / 2)))
    before = float(np.percentile(strip[:, :side], PAPER_PERCENTILE))
    after = float(np.percentile(strip[:, -side:], PAPER_PERCENTILE))
    paper = np.linspace(before, after, profile.size)
    darkness = np.clip(1.0 - profile / np.maximum(paper, 1.0), 0.0, 1.0)
    return float(darkness.sum() / cell)


def _heavy_margins(weights: EdgeWeights) -> dict[tuple[str, int, int], float] | None:
    """Each edge's distance from the board's light/heavy split, in halves of the gap between
    the two groups' means (log scale): +1 a typical heavy line, -1 a typical light one; None
    when the board prints no heavier lines."""
    edges = {("right", r, c): w for (r, c), w in np.ndenumerate(weights.right)}
    edges |= {("below", r, c): w for (r, c), w in np.ndenumerate(weights.below)}
    logs = np.log(np.maximum(np.array(list(edges.values())), 1e-4))
    split = _otsu(logs)
    heavy, light = logs[logs > split], logs[logs <= split]
    if heavy.size == 0 or light.size == 0:
        return None
    gap = float(heavy.mean() - light.mean())
    if gap < np.log(MIN_HEAVY_RATIO):
        return None
    middle = (heavy.mean() + light.mean()) / 2
    return {
        key: float((value - middle) / (gap / 2)) for key, value in zip(edges, logs, strict=True)
    }


def _otsu(values: np.ndarray) -> float:
    """The split of ``values`` into two groups with the largest between-group variance."""
    ordered = np.sort(values)
    best, split = -1.0, float(ordered[0])
    for i in range(1, ordered.size):
        low, high = ordered[:i], ordered[i:]
        between = low.size * high.size * (high.mean() - low.mean()) ** 2
        if between > best:
            best, split = between, float((ordered[i - 1] + ordered[i]) / 2)
    return split


def _likeliest_partition(
    n: int, margins: dict[tuple[str, int, int], float]
) -> tuple[Regions, float]:
    """The partition into N connected regions of N cells that disagrees least with the edges
    (the sum of the margins of the edges it reads the other way), and its certainty: how much
    less it disagrees than the next likeliest partition, (next - best) / (next + best)."""
    heavy = {key for key, margin in margins.items() if margin > 0}
    doubtful = sorted(margins, key=lambda key: abs(margins[key]))[:FLIP_POOL]
    candidates = {box_regions(shape.box_rows, shape.box_cols) for shape in _box_shapes(n)}
    for depth in range(FLIP_DEPTH + 1):
        for flipped in itertools.combinations(doubtful, depth):
            regions = _parts(n, heavy.symmetric_difference(flipped))
            if regions is not None:
                candidates.add(regions)
    costs = sorted((_disagreement(regions, margins), regions) for regions in candidates)
    best_cost, best = costs[0]
    if len(costs) == 1:
        return best, 1.0
    runner_up = costs[1][0]
    return best, float((runner_up - best_cost) / max(runner_up + best_cost, 1e-9))


def _disagreement(regions: Regions, margins: dict[tuple[str, int, int], float]) -> float:
    return sum(
        abs(margin) for key, margin in margins.items() if (margin > 0) != _is_border(regions, key)
    )


def _is_border(regions: Regions, key: tuple[str, int, int]) -> bool:
    kind, r, c = key
    other = regions[r][c + 1] if kind == "right" else regions[r + 1][c]
    return regions[r][c] != other


def _parts(n: int, heavy: set[tuple[str, int, int]]) -> Regions | None:
    """The parts the heavy edges cut the board into, numbered in reading order, when they are
    N parts of N cells and every heavy edge lies between two of them; else None."""
    parent = list(range(n * n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for r in range(n):
        for c in range(n):
            if c + 1 < n and ("right", r, c) not in heavy:
                parent[find(r * n + c)] = find(r * n + c + 1)
            if r + 1 < n and ("below", r, c) not in heavy:
                parent[find(r * n + c)] = find((r + 1) * n + c)
    numbers: dict[int, int] = {}
    cells = [numbers.setdefault(find(i), len(numbers)) for i in range(n * n)]
    if len(numbers) != n or np.bincount(cells).max() != n:
        return None
    regions = tuple(tuple(cells[r * n : (r + 1) * n]) for r in range(n))
    if any(not _is_border(regions, key) for key in heavy):
        return None
    return regions


def _fill_regions(pixels: np.ndarray, lattice: Lattice) -> tuple[Regions, float] | None:
    """The regions as the parts of like-filled neighbouring cells, when those are N parts of
    N cells, and their certainty; None when they are not.

    Fills alike differ by the photo's noise and light, fills of different regions by far more:
    the split between them is tried in each of the FILL_SPLITS widest gaps between the
    neighbours' sorted differences (above FILL_CONTRAST); the certainty is that gap's width
    as a share of its upper end."""
    n = lattice.shape.size
    colours = cell_colours(pixels, lattice)
    differences: dict[tuple[str, int, int], float] = {}
    for r in range(n):
        for c in range(n):
            brightness = max(float(colours[r, c].max()), 1.0)
            for key, (y, x) in ((("right", r, c), (r, c + 1)), (("below", r, c), (r + 1, c))):
                if y < n and x < n:
                    distance = np.linalg.norm(colours[r, c] - colours[y, x])
                    differences[key] = float(distance) / brightness
    ordered = np.sort(np.array(list(differences.values())))
    gaps = np.diff(ordered)
    for i in np.argsort(gaps)[::-1][:FILL_SPLITS]:
        if ordered[i + 1] < FILL_CONTRAST:
            continue
        split = (ordered[i] + ordered[i + 1]) / 2
        borders = {key for key, difference in differences.items() if difference >= split}
        regions = _parts(n, borders)
        if regions is not None:
            return regions, float(gaps[i] / ordered[i + 1])
    return None


def _box_shapes(n: int) -> list[GridShape]:
    return [GridShape(rows, n // rows) for rows in range(2, n) if n % rows == 0]


def _gray(pixels: np.ndarray) -> np.ndarray:
    return pixels if pixels.ndim == 2 else cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY)
