"""Warp part of a page through a homography without losing thin lines when it shrinks.

``cv2.warpPerspective`` samples the page at one point per output pixel (two neighbours with
linear interpolation). Where the warp shrinks the page by more than about 1.5, a line a pixel
or two wide (a hairline at 300 or 600 dpi) falls between the samples in some rows and not in
others: it comes back broken or not at all, and the lattice loses it. Shrinking the region by
area averaging first (every page pixel counts towards its output pixel) keeps such a line as
a fainter but whole line, and the warp is then nearly one-to-one.
"""

from __future__ import annotations

import cv2
import numpy as np

# Shrinking by more than this is done by area averaging before the warp.
MAX_SAMPLED_SHRINK = 1.5
# Page pixels kept around the warped region, so that interpolation at its edge has neighbours.
REGION_MARGIN_PX = 4


def warp(
    pixels: np.ndarray,
    homography: np.ndarray,
    size: tuple[int, int],
    border_value: float | tuple[float, ...] = 0.0,
) -> np.ndarray:
    """``cv2.warpPerspective(pixels, homography, size)`` (page -> output, size (w, h), linear,
    constant border), with the region area-averaged first where the warp shrinks it."""
    width, height = size
    outline = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    on_page = cv2.perspectiveTransform(outline.reshape(-1, 1, 2), np.linalg.inv(homography))
    on_page = on_page.reshape(4, 2)
    # Page pixels per output pixel along the page's x and y (the output's sides as page
    # vectors): each page axis is shrunk on its own, so a board of oblong cells, squeezed
    # along one axis only, keeps the detail of the other.
    along_x = (on_page[1] - on_page[0]) / max(width, 1)
    along_y = (on_page[3] - on_page[0]) / max(height, 1)
    shrink_x = max(abs(along_x[0]), abs(along_y[0]), 1.0)
    shrink_y = max(abs(along_x[1]), abs(along_y[1]), 1.0)
    if not np.all(np.isfinite(on_page)) or max(shrink_x, shrink_y) <= MAX_SAMPLED_SHRINK:
        return _warped(pixels, homography, size, border_value)
    rows, cols = pixels.shape[:2]
    # Shrinking by whole factors averages whole blocks of pixels, three times quicker than by
    # fractions; the warp then scales by 0.75 to 1.25 at most, which loses no line.
    factor_x, factor_y = max(1, round(shrink_x)), max(1, round(shrink_y))
    x0, y0 = np.floor(on_page.min(axis=0)).astype(int) - REGION_MARGIN_PX
    x1, y1 = np.ceil(on_page.max(axis=0)).astype(int) + REGION_MARGIN_PX
    x0, x1 = _whole_blocks(int(x0), int(x1), factor_x, cols)
    y0, y1 = _whole_blocks(int(y0), int(y1), factor_y, rows)
    if x1 - x0 < 2 * factor_x or y1 - y0 < 2 * factor_y:
        return _warped(pixels, homography, size, border_value)
    region = pixels[y0:y1, x0:x1]
    small_w, small_h = (x1 - x0) // factor_x, (y1 - y0) // factor_y
    small = cv2.resize(region, (small_w, small_h), interpolation=cv2.INTER_AREA)
    # Page -> small region: shift to the region's corner, then scale (pixel centres mapped as
    # INTER_AREA places them).
    sx, sy = small_w / (x1 - x0), small_h / (y1 - y0)
    to_small = np.array(
        [[sx, 0, (0.5 - x0) * sx - 0.5], [0, sy, (0.5 - y0) * sy - 0.5], [0, 0, 1]], np.float64
    )
    return _warped(small, homography @ np.linalg.inv(to_small), size, border_value)


def _whole_blocks(lo: int, hi: int, factor: int, limit: int) -> tuple[int, int]:
    """The span [lo, hi) within [0, limit), grown (or, at the page's edges, cut) to a whole
    number of blocks of ``factor`` pixels."""
    length = -(-(hi - lo) // factor) * factor
    hi = min(max(lo, 0) + length, limit)
    lo = max(hi - length, 0)
    return lo, lo + (hi - lo) // factor * factor


def _warped(
    pixels: np.ndarray,
    homography: np.ndarray,
    size: tuple[int, int],
    border_value: float | tuple[float, ...],
) -> np.ndarray:
    if not isinstance(border_value, tuple):
        border_value = (border_value,) * 3
    return cv2.warpPerspective(
        pixels,
        homography,
        size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=border_value,
    )
