"""Grey-level percentiles of uint8 images, by histogram (np.percentile sorts, which is slow on
whole pages and costly per cell)."""

from __future__ import annotations

import cv2
import numpy as np


def grey_levels(image: np.ndarray, percents: tuple[float, ...]) -> tuple[float, ...]:
    """The grey levels below which the given percentages of a uint8 image's pixels fall."""
    counts = cv2.calcHist([np.ascontiguousarray(image)], [0], None, [256], [0, 256]).ravel()
    cumulative = np.cumsum(counts)
    targets = np.asarray(percents, dtype=np.float64) / 100.0 * max(int(cumulative[-1]) - 1, 0)
    return tuple(float(v) for v in np.searchsorted(cumulative, targets, side="right"))
