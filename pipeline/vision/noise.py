"""How noisy a page is: the spread of its grey levels about their smoothed selves.

Sensor noise and JPEG's blotches live at the finest scales; print changes far less from one
pixel to the next except at its edges, a minority of pixels. So the robust spread (median
absolute deviation) of the page minus its slightly blurred self measures the noise alone.
"""

from __future__ import annotations

import cv2
import numpy as np

# The blur whose residual holds the noise: wider than JPEG's smoothing within a block, far
# narrower than a cell, so paper and the inside of strokes cancel.
SMOOTHING_PX = 2.0
# A normal distribution's standard deviation over its median absolute deviation.
MAD_TO_SIGMA = 1.4826


def noise_sigma(gray: np.ndarray) -> float:
    """The standard deviation (grey levels) of the fine-scale noise on a uint8 page."""
    pixels = gray.astype(np.float32)
    residual = pixels - cv2.GaussianBlur(pixels, (0, 0), SMOOTHING_PX)
    return MAD_TO_SIGMA * float(np.median(np.abs(residual - np.median(residual))))
