"""Setting cell crops side by side into text-line images for a line recogniser.

PP-OCR's recogniser reads lines of text 48 pixels tall, one output frame per 8 pixel columns.
On real phone photos (bench/ocr_calibration.py), it reads a cell best as it is printed:
the whole cell, paper and all, scaled to the line height; stretching contrast or cutting the
digit out tightly made it misread blurred 7s and 4s as 1s. It also reads digits set in a row
better than one digit alone (the line gives it context), and a row costs less: compute grows
with image width, so a digit in a 32-column slot costs two thirds of a 48-column cell. A slot
is a whole number of frames wide, so each crop's frames are known and decoded on their own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

LINE_HEIGHT = 48
FRAME_WIDTH = 8  # columns of input per output frame
PAPER = 255.0
# Dark pixels this close to a cell's edge are left-over grid line, not the digit.
EDGE_COLUMNS = 3
# A grid line left in a crop (the lattice is a pixel or two off) lies within this share of the
# cell from an edge, and is dark along at least LINE_SPAN of its length; a digit's strokes are
# shorter and nearer the centre. Read beside a digit, such a line turns it into a 1: erasing
# them halved the errors with corners moved up to 0.15 or 0.25 cell (14 -> 6, 61 -> 30 of 4,626).
EDGE_BAND = 0.25
LINE_SPAN = 0.85
LINE_HALO = 1  # pixels erased past a line on the digit's side: its blurred edge is grey
MIN_CONTRAST = 16.0  # below this paper - ink spread there is nothing to erase


def percentiles(values: np.ndarray, shares: Sequence[float]) -> np.ndarray:
    """np.percentile(values, shares) with its default linear interpolation, computed directly:
    np.percentile's own overhead was most of the time spent preparing a cell."""
    ordered = np.sort(values, axis=None)
    position = np.asarray(shares, dtype=np.float64) / 100.0 * (ordered.size - 1)
    low = np.floor(position).astype(np.intp)
    high = np.minimum(low + 1, ordered.size - 1)
    below, above = ordered[low].astype(np.float64), ordered[high].astype(np.float64)
    return below + (above - below) * (position - low)


def square_cell(crop: np.ndarray) -> np.ndarray:
    """The crop scaled to LINE_HEIGHT x LINE_HEIGHT (float32); a non-square crop is first
    centred on a square of its own paper colour so the digit keeps its shape."""
    gray = crop.astype(np.float32)
    rows, cols = gray.shape
    if rows != cols:
        side = max(rows, cols)
        paper = float(percentiles(gray, (90,))[0])
        top, left = (side - rows) // 2, (side - cols) // 2
        gray = cv2.copyMakeBorder(
            gray,
            top,
            side - rows - top,
            left,
            side - cols - left,
            cv2.BORDER_CONSTANT,
            value=paper,
        )
    interpolation = cv2.INTER_AREA if gray.shape[0] >= LINE_HEIGHT else cv2.INTER_CUBIC
    return cv2.resize(gray, (LINE_HEIGHT, LINE_HEIGHT), interpolation=interpolation)


def erase_edge_lines(cell: np.ndarray) -> np.ndarray:
    """The cell with grid-line remnants along its edges, and whatever lies outside them,
    painted paper colour."""
    paper, ink = percentiles(cell, (90, 2))
    if paper - ink < MIN_CONTRAST:
        return cell
    dark = cell < (paper + ink) / 2
    size = cell.shape[0]
    band = int(EDGE_BAND * size)
    out = cell.copy()
    for axis in (0, 1):  # 0: columns (vertical lines), 1: rows (horizontal lines)
        profile = dark.mean(axis=axis)
        near = np.nonzero(profile[:band] >= LINE_SPAN)[0]
        far = np.nonzero(profile[size - band :] >= LINE_SPAN)[0]
        start = near.max() + 1 + LINE_HALO if near.size else 0
        stop = size - band + far.min() - LINE_HALO if far.size else size
        if axis == 0:
            out[:, :start] = paper
            out[:, stop:] = paper
        else:
            out[:start, :] = paper
            out[stop:, :] = paper
    return out


def ink_centre(cell: np.ndarray) -> float:
    """The column the cell's ink is centred on (its darkness-weighted mean), in pixels."""
    paper = percentiles(cell, (90,))[0]
    darkness = np.clip(paper - cell, 0.0, None)
    darkness[:, :EDGE_COLUMNS] = 0.0
    darkness[:, -EDGE_COLUMNS:] = 0.0
    profile = darkness.sum(axis=0)
    total = profile.sum()
    if total <= 0.0:
        return cell.shape[1] / 2
    return float((profile * np.arange(cell.shape[1])).sum() / total) + 0.5


def slot_image(crop: np.ndarray, slot_width: int) -> np.ndarray:
    """The crop as one slot of a line: its square cell, cut to ``slot_width`` columns centred on
    the ink (padded with white where the window overhangs)."""
    cell = erase_edge_lines(square_cell(crop))
    if slot_width >= LINE_HEIGHT:
        margin = slot_width - LINE_HEIGHT
        return cv2.copyMakeBorder(
            cell, 0, 0, margin // 2, margin - margin // 2, cv2.BORDER_CONSTANT, value=PAPER
        )
    left = int(round(ink_centre(cell) - slot_width / 2))
    padded = cv2.copyMakeBorder(
        cell, 0, 0, slot_width, slot_width, cv2.BORDER_CONSTANT, value=PAPER
    )
    return padded[:, left + slot_width : left + 2 * slot_width]


def line_batch(crops: Sequence[np.ndarray], slot_width: int, per_line: int) -> np.ndarray:
    """The crops as lines of at most ``per_line`` slots, balanced so no line is mostly empty:
    [lines, LINE_HEIGHT, slots * slot_width] float32 in 0..255, unused slots white.

    Crop i sits in line i // slots, slot i % slots, where slots = the returned width //
    slot_width.
    """
    if slot_width % FRAME_WIDTH:
        raise ValueError(f"slot width {slot_width} is not a multiple of {FRAME_WIDTH}")
    lines = math.ceil(len(crops) / per_line)
    slots = math.ceil(len(crops) / lines)
    batch = np.full((lines * slots, LINE_HEIGHT, slot_width), PAPER, dtype=np.float32)
    for i, crop in enumerate(crops):
        batch[i] = slot_image(crop, slot_width)
    # Slots of one line are consecutive: [lines, slots, H, W] -> [lines, H, slots * W].
    return (
        batch.reshape(lines, slots, LINE_HEIGHT, slot_width)
        .transpose(0, 2, 1, 3)
        .reshape(lines, LINE_HEIGHT, slots * slot_width)
    )


def model_input(lines: np.ndarray) -> np.ndarray:
    """Grey lines [lines, LINE_HEIGHT, width] in 0..255 as the recogniser takes them:
    [lines, 3, LINE_HEIGHT, width] float32, normalised as PP-OCR is trained, to -1..1."""
    x = (lines / 255.0 - 0.5) / 0.5
    return np.repeat(x[:, None], 3, axis=1).astype(np.float32)
