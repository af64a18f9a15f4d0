"""Find a halftone screen on a board and its dot spacing, from the board's spectrum.

A screen is a lattice of dots, so its power sits in a few sharp peaks at its pitch; print
(digits, blur, grain, noise) spreads its power over all directions at each frequency. So the
board's power spectrum is averaged over small windows and each frequency's power is set against
the median of its ring (all directions at that frequency): a screen stands far above its ring,
print does not. Frequencies along the board's axes are left out: there lie the grid lines'
(and a photo's JPEG blocks') own harmonics, which are sharp too.
"""

from __future__ import annotations

import cv2
import numpy as np

# The spectrum is averaged over windows of this side, half overlapping: a few periods of the
# coarsest screen looked for.
WINDOW_PX = 32
# Screens looked for: from just coarser than JPEG's third block harmonic (8/3 px), below which
# the fixed blur of pipeline.vision.cells already fades dots, to as coarse as a newspaper's
# tint screen at the smallest cells boards are read at.
PERIOD_PX = (3.0, 8.0)
# Frequencies within this many bins of an axis are left out (the lines' harmonics, spread by a
# slightly turned board).
AXIS_BINS = 2.5
# A screen's peak stands at least this many times above its ring's median: print and noise
# reach a few times (their rings are alike all round), a screen tens of times.
PEAK_RATIO = 12.0
# A screen is blurred away with a Gaussian of this share of its dot spacing: its dots' pattern
# falls to under 1% (exp(-2 pi^2 share^2)).
DESCREEN_SHARE = 0.5


def descreened(gray: np.ndarray) -> np.ndarray | None:
    """``gray`` with the halftone screen printed on it blurred away, or None with no screen."""
    period = screen_period(gray)
    if period is None:
        return None
    return cv2.GaussianBlur(gray, (0, 0), DESCREEN_SHARE * period)


def screen_period(gray: np.ndarray) -> float | None:
    """The dot spacing (pixels) of a halftone screen printed on ``gray``, or None."""
    ratio, period = strongest_peak(gray)
    return period if ratio >= PEAK_RATIO else None


def strongest_peak(gray: np.ndarray) -> tuple[float, float]:
    """The spectrum's sharpest screen-like peak within the screens looked for: how far it
    and its twin a quarter-turn round stand above their ring's median (the weaker of the
    two), and its period in pixels (0, 0 on a board too small to tell)."""
    power = _mean_power(gray)
    if power is None:
        return 0.0, 0.0
    fy, fx = np.meshgrid(np.fft.fftfreq(WINDOW_PX), np.fft.rfftfreq(WINDOW_PX), indexing="ij")
    radius = np.hypot(fx, fy)
    off_axes = (np.abs(fx) > AXIS_BINS / WINDOW_PX) & (np.abs(fy) > AXIS_BINS / WINDOW_PX)
    searched = off_axes & (radius >= 1 / PERIOD_PX[1]) & (radius <= 1 / PERIOD_PX[0])
    if not searched.any():
        return 0.0, 0.0
    ring = np.round(radius * WINDOW_PX).astype(int)
    above = np.zeros_like(power)
    for k in np.unique(ring[searched]):
        on_ring = searched & (ring == k)
        above[on_ring] = power[on_ring] / max(float(np.median(power[on_ring])), 1e-9)
    # A screen is a square lattice of dots: its peak comes with a twin a quarter-turn round.
    # Print shrunk without smoothing (a region far wider than tall, surveyed as a square)
    # aliases into sharp peaks too, but in one direction.
    strength = np.minimum(above, above[_quarter_turn()])
    best = np.unravel_index(int(np.argmax(strength)), strength.shape)
    return float(strength[best]), float(1 / radius[best])


def _quarter_turn() -> tuple[np.ndarray, np.ndarray]:
    """Per bin of a half spectrum (``np.fft.rfft2``'s), the bin of the frequency turned a
    quarter round, or of its mirror where that falls in the other half."""
    half = WINDOW_PX // 2 + 1
    iy, ix = np.meshgrid(np.arange(WINDOW_PX), np.arange(half), indexing="ij")
    ky = np.where(iy < WINDOW_PX // 2, iy, iy - WINDOW_PX)
    # (kx, ky) turned is (-ky, kx); in this half (x >= 0) as itself or as its mirror (ky, -kx).
    here = -ky >= 0
    twin_x = np.where(here, -ky, ky)
    twin_y = np.where(here, ix, -ix) % WINDOW_PX
    return twin_y, twin_x


def _mean_power(gray: np.ndarray) -> np.ndarray | None:
    """The power spectrum averaged over half-overlapping Hann windows of ``gray``: half of it,
    the other half mirroring it (real input)."""
    h, w = gray.shape[:2]
    if h < WINDOW_PX or w < WINDOW_PX:
        return None
    # Half-overlapping, so that no structure repeating at the windows' own pitch (a grid's
    # cells, dashes along its lines) sits at the same place in every window.
    step = WINDOW_PX // 2
    windows = np.lib.stride_tricks.sliding_window_view(gray, (WINDOW_PX, WINDOW_PX))
    tiles = windows[::step, ::step].reshape(-1, WINDOW_PX, WINDOW_PX).astype(np.float32)
    tiles -= tiles.mean(axis=(1, 2), keepdims=True)
    hann = np.hanning(WINDOW_PX).astype(np.float32)
    tiles *= np.outer(hann, hann)
    return (np.abs(np.fft.rfft2(tiles)) ** 2).mean(axis=0)
