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
# A peak stands out of its ring only in windows holding several of its periods: a 6 px screen
# at 55 degrees, 5 periods to a 32 px window, stands 4.7 above its ring. Where none is found,
# coarse screens are looked for again in windows of this side (8 periods of the coarsest),
# over these spacings.
COARSE_WINDOW_PX = 80
COARSE_PERIOD_PX = (5.0, 10.0)
# ...where a peak holds at least this share of the power of the strongest frequency finer than
# it (within PERIOD_PX): a screen's own a third or more, print's aliases a thousandth.
POWER_SHARE = 0.1
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
    blur = descreen_blur(gray)
    return None if blur is None else cv2.GaussianBlur(gray, (0, 0), blur)


def descreen_blur(gray: np.ndarray) -> float | None:
    """The Gaussian's sigma (pixels) that blurs away the halftone screen printed on ``gray``,
    or None with no screen."""
    period = screen_period(gray)
    return None if period is None else DESCREEN_SHARE * period


def screen_period(gray: np.ndarray) -> float | None:
    """The dot spacing (pixels) of a halftone screen printed on ``gray``, or None."""
    strength, period = strongest_peak(gray)
    if strength >= PEAK_RATIO:
        return period
    strengths, periods = _coarse_peaks(gray)
    found = periods[strengths >= PEAK_RATIO]
    # A screen's dots sit on a square lattice: besides its spacing's peaks, its spectrum peaks
    # at finer harmonics (the diagonal's, at spacing / sqrt 2, sometimes the sharper), never
    # at coarser ones; blurred over a harmonic's spacing, its dots would stay.
    return float(found.max()) if found.size else None


def strongest_peak(gray: np.ndarray) -> tuple[float, float]:
    """The spectrum's sharpest screen-like peak within the screens looked for: how far it
    and its twin a quarter-turn round stand above their ring's median (the weaker of the
    two), and its period in pixels (0, 0 on a board too small to tell)."""
    radius, off_axes = _bins(WINDOW_PX)
    searched = off_axes & (radius >= 1 / PERIOD_PX[1]) & (radius <= 1 / PERIOD_PX[0])
    power = _mean_power(gray, WINDOW_PX)
    if power is None or not searched.any():
        return 0.0, 0.0
    strength = _strengths(power, radius, searched)
    best = np.unravel_index(int(np.argmax(strength)), strength.shape)
    return float(strength[best]), float(1 / radius[best])


def _coarse_peaks(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The peaks of the coarse screens' look (``COARSE_WINDOW_PX``, ``COARSE_PERIOD_PX``):
    each one's strength (as ``strongest_peak``'s) and period. Only the tops of peaks, found
    over the whole spectrum: a sharp peak spills over into the bins round it, and a finer
    screen's (``strongest_peak``'s) into the edge of the spacings looked for here."""
    radius, off_axes = _bins(COARSE_WINDOW_PX)
    power = _mean_power(gray, COARSE_WINDOW_PX)
    if power is None:
        return np.zeros(0), np.zeros(0)
    strength = _strengths(power, radius, off_axes)
    top = strength >= cv2.dilate(strength, np.ones((3, 3), np.uint8))
    kept = top & off_axes & (radius >= 1 / COARSE_PERIOD_PX[1])
    kept &= radius <= 1 / COARSE_PERIOD_PX[0]
    # A screen's own peak holds about as much power as any finer frequency's (its harmonics
    # hold less, or a little more). Print shrunk without smoothing, in sharp stripes, aliases
    # into faint peaks that can pair up a quarter-turn apart in these narrow bins, thousands
    # of times weaker than the stripes' own.
    fine = off_axes & (radius <= 1 / PERIOD_PX[0])
    for y, x in zip(*np.nonzero(kept), strict=True):
        kept[y, x] = power[y, x] >= POWER_SHARE * power[fine & (radius >= radius[y, x])].max()
    return strength[kept], 1 / radius[kept]


def _bins(window: int) -> tuple[np.ndarray, np.ndarray]:
    """Per bin of a ``window``-px half spectrum: its radius (cycles a pixel), and whether it
    lies off the axes (``AXIS_BINS``)."""
    fy, fx = np.meshgrid(np.fft.fftfreq(window), np.fft.rfftfreq(window), indexing="ij")
    off_axes = (np.abs(fx) > AXIS_BINS / window) & (np.abs(fy) > AXIS_BINS / window)
    return np.hypot(fx, fy), off_axes


def _strengths(power: np.ndarray, radius: np.ndarray, among: np.ndarray) -> np.ndarray:
    """Per bin ``among`` those of ``power`` (0 elsewhere): how far it and its twin a
    quarter-turn round stand above the median of their ring's bins ``among`` them (the
    weaker of the two)."""
    window = power.shape[0]
    ring = np.round(radius * window).astype(int)
    above = np.zeros_like(power)
    for k in np.unique(ring[among]):
        on_ring = among & (ring == k)
        above[on_ring] = power[on_ring] / max(float(np.median(power[on_ring])), 1e-9)
    # A screen is a square lattice of dots: its peak comes with a twin a quarter-turn round.
    # Print shrunk without smoothing (a region far wider than tall, surveyed as a square)
    # aliases into sharp peaks too, but in one direction.
    return np.minimum(above, above[_quarter_turn(window)])


def _quarter_turn(window: int) -> tuple[np.ndarray, np.ndarray]:
    """Per bin of a half spectrum (``np.fft.rfft2``'s), the bin of the frequency turned a
    quarter round, or of its mirror where that falls in the other half."""
    half = window // 2 + 1
    iy, ix = np.meshgrid(np.arange(window), np.arange(half), indexing="ij")
    ky = np.where(iy < window // 2, iy, iy - window)
    # (kx, ky) turned is (-ky, kx); in this half (x >= 0) as itself or as its mirror (ky, -kx).
    here = -ky >= 0
    twin_x = np.where(here, -ky, ky)
    twin_y = np.where(here, ix, -ix) % window
    return twin_y, twin_x


def _mean_power(gray: np.ndarray, window: int) -> np.ndarray | None:
    """The power spectrum averaged over half-overlapping ``window``-px Hann windows of
    ``gray``: half of it, the other half mirroring it (real input)."""
    h, w = gray.shape[:2]
    if h < window or w < window:
        return None
    # Half-overlapping, so that no structure repeating at the windows' own pitch (a grid's
    # cells, dashes along its lines) sits at the same place in every window.
    step = window // 2
    windows = np.lib.stride_tricks.sliding_window_view(gray, (window, window))
    tiles = windows[::step, ::step].reshape(-1, window, window).astype(np.float32)
    tiles -= tiles.mean(axis=(1, 2), keepdims=True)
    hann = np.hanning(window).astype(np.float32)
    tiles *= np.outer(hann, hann)
    return (np.abs(np.fft.rfft2(tiles)) ** 2).mean(axis=0)
