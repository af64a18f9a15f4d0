"""Reading each distinct glyph of a board once: givens printed alike are grouped by their ink,
and only a few of each group go through the recogniser.

The recogniser's cost is linear in the crops it reads, and a 9x9 board's ~33 givens hold only
nine shapes in one font. So the crops' glyphs are compared (``glyph_distances``), grouped where
no two members of a group are far apart (complete linkage), and of each group two are read: its
medoid and the member least like it. Their reading goes to the rest only when it is safe to:

- a member stays in its group only if it is clearly nearer to every member of its group than
  to any crop outside it: a margin, not just a threshold;
- the representatives must read the same digit; a mixed group (a 6 among 8s) shows as a
  disagreement, as its least typical member is one of the two read;
- every crop read (representatives and the crops read alone) must read at ``SURE`` or more;
- groups of no more than two, crops without a glyph and the members put out of a group are
  read directly.

When any check fails, the whole board is read crop by crop, as without grouping: doubt costs
time, never a reading. Members take the less confident representative's reading. The
thresholds stand between the distances of same-digit and different-digit pairs
(bench.glyph_groups prints them).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from sudoku_batch.pipeline.reading import DigitReading
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.ocr.text_lines import MIN_CONTRAST, square_cell

GLYPH_PX = 32  # side of the square glyphs are compared in
# Glyphs are scaled to this radius of gyration (their ink's RMS distance from its centroid).
GLYPH_RADIUS = 7.0
SHIFT_PX = 1  # shifts of up to this many pixels each way are tried in a comparison
WINDOW_PX = 3  # the window over which two glyphs' differences are averaged
# Distances of same-digit pairs of a board reach 0.11-0.16 (99th percentile, books-dev); those of
# different digits are at least 0.37 in books-dev, 0.16 in blurred synth fonts, 0.155 in the
# photos.
SAME_GLYPH = 0.15  # the largest distance between two members of a group
MARGIN = 0.1  # a member's nearest crop outside its group is this much farther than any inside
REPRESENTATIVES = 2  # read of each group: its medoid, and the member least like it
SURE = 0.99  # least confidence of every crop read for the grouped readings to stand
PAPER_SHARE, INK_SHARE = 0.9, 0.02  # the quantiles of a cell taken for its paper and its ink
GLYPH_INK_SHARE = 0.5  # least share of a cell's ink its glyph must hold to be compared
SPECK_SHARE = 0.005  # blobs smaller than this share of the cell are specks


@dataclass(frozen=True)
class GlyphGroup:
    """Crops (by index) taken for one glyph, and those read for all of them."""

    members: tuple[int, ...]
    representatives: tuple[int, ...]


def glyph_images(crops: Sequence[np.ndarray]) -> np.ndarray:
    """[crops, GLYPH_PX, GLYPH_PX]: each crop's glyph, the darkness (0 paper .. 1 ink) of its
    ink blobs clear of the cell's edges (what touches an edge is grid line, a neighbour's digit
    or shadow), scaled to GLYPH_RADIUS and centred on its centroid; all 0 when there is none.
    Scaled, as printed digits may be a third of their cell: the few pixels where a 6 differs
    from an 8 must count."""
    cells = np.stack([square_cell(crop) for crop in crops])
    ordered = np.sort(cells.reshape(len(cells), -1), axis=1)
    paper = ordered[:, int(PAPER_SHARE * (ordered.shape[1] - 1))]
    ink = ordered[:, int(INK_SHARE * (ordered.shape[1] - 1))]
    contrast = np.maximum(paper - ink, MIN_CONTRAST)
    darkness = np.clip((paper[:, None, None] - cells) / contrast[:, None, None], 0.0, 1.0)
    images = np.zeros((len(cells), GLYPH_PX, GLYPH_PX), np.float32)
    for image, cell_darkness in zip(images, darkness, strict=True):
        glyph = glyph_blobs(cell_darkness)
        if glyph is not None:
            image[:] = centred_glyph(glyph)
    return images


def centred_glyph(glyph: np.ndarray) -> np.ndarray:
    moments = cv2.moments(glyph)
    centre_col = moments["m10"] / moments["m00"]
    centre_row = moments["m01"] / moments["m00"]
    radius = np.sqrt((moments["mu20"] + moments["mu02"]) / moments["m00"])
    scale = GLYPH_RADIUS / max(radius, 1.0)
    half = GLYPH_PX / 2 - 0.5
    fit = np.float32([[scale, 0, half - scale * centre_col], [0, scale, half - scale * centre_row]])
    return cv2.warpAffine(glyph, fit, (GLYPH_PX, GLYPH_PX), flags=cv2.INTER_LINEAR)


def glyph_blobs(darkness: np.ndarray) -> np.ndarray | None:
    """The darkness on the ink blobs (Otsu) clear of the edges and larger than a speck, grown
    by a pixel all round (the blurred rim); None when they hold less than GLYPH_INK_SHARE of
    the ink (a digit printed or cut across an edge, or shadow: left alone)."""
    gray = np.round(darkness * 255).astype(np.uint8)
    _, ink = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    rows, cols = darkness.shape
    x, y, width, height, area = stats.T
    keep = (x > 0) & (y > 0) & (x + width < cols) & (y + height < rows)
    keep &= area >= SPECK_SHARE * rows * cols
    keep[0] = False  # the background
    kept = keep[labels]
    inked = darkness[ink.astype(bool)].sum()
    if not inked or darkness[kept].sum() < GLYPH_INK_SHARE * inked:
        return None
    return darkness * cv2.dilate(kept.astype(np.uint8), np.ones((3, 3), np.uint8))


def glyph_distances(crops: Sequence[np.ndarray]) -> np.ndarray:
    """[crops, crops] how unlike two crops' glyph images are: the largest mean absolute
    difference of darkness over any WINDOW_PX square, at the best of the shifts of up to SHIFT_PX
    each way. A local measure: blurred, a 6 and an 8 differ only where the 6 is open, which a
    whole-image correlation hardly sees (0.99 on the photos). Crops without a glyph are 1 from
    all others, and so is any pair farther than SAME_GLYPH + MARGIN (no decision tells such
    distances apart)."""
    images = glyph_images(crops)
    count = len(images)
    # A cheap lower bound first: the windows include the WINDOW_PX blocks of a fixed tiling; a
    # block's mean absolute difference is at least the difference of its two means, and at
    # least how far one image's mean lies outside the range of the other's over the shifts.
    blocks = block_means(images)
    moved = np.stack([block_means(view) for view in shifted(images)])
    low, high = moved.min(axis=0), moved.max(axis=0)
    outside = np.maximum(
        blocks[:, None, :] - high[None, :, :], low[None, :, :] - blocks[:, None, :]
    )
    bound = outside.max(axis=2)
    has_glyph = images.reshape(count, -1).any(axis=1)
    near = np.triu(bound <= SAME_GLYPH + MARGIN, 1) & has_glyph[:, None] & has_glyph[None, :]
    first, second = np.nonzero(near)
    distance = np.ones((count, count))
    np.fill_diagonal(distance, 0.0)
    if not first.size:
        return distance
    best = np.full(first.size, np.inf)
    near_images = images[first]
    for view in shifted(images[second]):
        best = np.minimum(best, largest_window_mean(np.abs(near_images - view)))
    distance[first, second] = best
    distance[second, first] = best
    return distance


def shifted(images: np.ndarray) -> list[np.ndarray]:
    """The images moved by every shift of up to SHIFT_PX pixels each way (paper coming in)."""
    pad = SHIFT_PX
    padded = np.pad(images, ((0, 0), (pad, pad), (pad, pad)))
    return [
        padded[:, dy : dy + GLYPH_PX, dx : dx + GLYPH_PX]
        for dy in range(2 * pad + 1)
        for dx in range(2 * pad + 1)
    ]


def block_means(images: np.ndarray) -> np.ndarray:
    """[images, blocks]: the means of each image's WINDOW_PX square blocks, tiled from its
    corner."""
    w = WINDOW_PX
    side = GLYPH_PX // w * w
    tiles = images[:, :side, :side]
    rows = sum(tiles[:, i::w] for i in range(w))
    blocks = sum(rows[:, :, i::w] for i in range(w))
    return blocks.reshape(len(images), -1) / (w * w)


def largest_window_mean(images: np.ndarray) -> np.ndarray:
    """Per image of [images, rows, cols], its largest mean over WINDOW_PX squares."""
    w = WINDOW_PX
    rows = sum(images[:, i : images.shape[1] - w + 1 + i] for i in range(w))
    both = sum(rows[:, :, i : images.shape[2] - w + 1 + i] for i in range(w))
    return both.reshape(len(images), -1).max(axis=1, initial=0.0) / (w * w)


def complete_linkage(distance: np.ndarray, limit: float) -> list[list[int]]:
    """Clusters in which no pair is more than ``limit`` apart, merged closest first."""
    clusters = [[i] for i in range(len(distance))]
    linked = distance.astype(np.float64, copy=True)
    np.fill_diagonal(linked, np.inf)
    alive = np.ones(len(clusters), bool)
    while True:
        masked = np.where(alive[:, None] & alive[None, :], linked, np.inf)
        a, b = np.unravel_index(int(np.argmin(masked)), masked.shape)
        if masked[a, b] > limit:
            break
        clusters[a].extend(clusters[b])
        alive[b] = False
        # The farthest pair across the merged clusters is their distance to any other.
        linked[a, :] = np.maximum(linked[a, :], linked[b, :])
        linked[:, a] = linked[a, :]
        linked[a, a] = np.inf
    return [sorted(cluster) for cluster, kept in zip(clusters, alive, strict=True) if kept]


def glyph_groups(distance: np.ndarray, representatives: int = REPRESENTATIVES) -> list[GlyphGroup]:
    """The groups whose reading may be shared (module notes); crops in none are read alone."""
    groups = []
    for cluster in complete_linkage(distance, SAME_GLYPH):
        if len(cluster) <= representatives:
            continue
        inside = np.zeros(len(distance), bool)
        inside[cluster] = True
        kept = [
            i
            for i in cluster
            if distance[i, ~inside].min(initial=np.inf) - distance[i, cluster].max() >= MARGIN
        ]
        if len(kept) > representatives:
            within = distance[np.ix_(kept, kept)]
            medoid = kept[int(np.argmin(within.sum(axis=1)))]
            others = [i for i in kept if i != medoid]
            farthest = others[int(np.argmax(distance[medoid, others]))]
            groups.append(GlyphGroup(tuple(kept), (medoid, farthest)[:representatives]))
    return groups


class GlyphGroupingEngine:
    """An engine that reads through ``engine`` only the crops its glyph groups need."""

    def __init__(self, engine: OcrEngine, representatives: int = REPRESENTATIVES):
        self.engine = engine
        self.name = engine.name
        self.representatives = representatives

    def read_digits(
        self, crops: Sequence[np.ndarray], symbols: Mapping[str, int]
    ) -> list[DigitReading]:
        if not crops:
            return []
        groups = glyph_groups(glyph_distances(crops), self.representatives)
        grouped = {i for group in groups for i in group.members}
        representatives = {i for group in groups for i in group.representatives}
        first = sorted(representatives | (set(range(len(crops))) - grouped))
        readings: dict[int, DigitReading] = dict(
            zip(first, self.engine.read_digits([crops[i] for i in first], symbols), strict=True)
        )
        # Any doubt has the board read whole, as without grouping: a crop's reading depends on
        # the others in its line (a line of letter Is alone reads as 1s; a large 7 cut by its
        # cell's edges, beside fewer others, as a 1).
        if any(reading.confidence < SURE for reading in readings.values()):
            return self.engine.read_digits(crops, symbols)
        for group in groups:
            read = [readings[i] for i in group.representatives]
            if any(reading.digit != read[0].digit for reading in read):
                return self.engine.read_digits(crops, symbols)
            shared = min(read, key=lambda reading: reading.confidence)
            for i in group.members:
                readings.setdefault(i, shared)
        return [readings[i] for i in range(len(crops))]
