"""Put a comb's outer lines on the board's own border, not on a border showing through.

A photo of a page whose back shows through holds a second grid, mirrored, fainter and a
little off the board's own. An outline around both takes in the back page's border past the
board's own, by up to half a cell, and the comb's outer tooth then finds only that border. The
board's own border is spaced evenly with its interior lines: where an outer tooth's line is off
that spacing, the line nearest it is looked for around it. The spacing is measured on the
interior teeth that found one line alone (the back page's grid shows its heavy box lines, a
few of them, beside some teeth only). Lines a little off it stay as found, outer (digits
against a border pull it a few pixels) and interior (a blurred or shadowed line splits into
several runs): choosing among their runs moves the cells of boards read right as they are.
"""

from __future__ import annotations

import numpy as np

# A line this far (share of a cell) or further from the even spacing of the interior lines is
# off it; neighbouring lines of a comb that fits are as close to a cell apart
# (lattice's MAX_GAP_DEVIATION).
OFF_LATTICE_CELLS = 0.25

# An outer tooth's rows off the even spacing, with no line near it, are no border when they
# cover less than this share of what the interior lines do: a stack of digits' strokes covers
# a few tenths of the board, a border (even one the outline cuts at a slant) most of what the
# interior lines cover.
BORDER_SHARE = 0.5

Run = tuple[int, int]  # rows start to end - 1 of a printed line


def line_runs(coverage: np.ndarray, lo: int, hi: int) -> list[Run]:
    """The runs of rows of ``coverage[lo:hi]`` reaching half its peak: each the printed
    line (or the lines side by side) there, in rows of ``coverage``."""
    window = coverage[lo:hi]
    strong = (window >= 0.5 * window.max()).view(np.int8)
    edges = np.diff(np.concatenate(([0], strong, [0])))
    starts, ends = np.flatnonzero(edges > 0), np.flatnonzero(edges < 0)
    return [(lo + int(s), lo + int(e)) for s, e in zip(starts, ends, strict=True)]


def line_middle(runs: list[Run]) -> float | None:
    """The middle of all the rows of a tooth's runs (one line, or a line and what is beside
    it); None when the tooth found none."""
    if not runs:
        return None
    rows = np.concatenate([np.arange(start, end) for start, end in runs])
    return float(rows.mean())


def even_lines(
    found: list[list[Run]], coverage: np.ndarray, cell: float, reach: float, weakest: float
) -> list[float | None]:
    """Each tooth's line (None where it found none): the middle of its runs, but an outer
    tooth's, where that is off the even spacing of the interior lines, the run nearest that
    spacing among the rows within ``reach`` of it (covering ``weakest`` at least). Lines as
    found when fewer than two interior teeth found one line alone: nothing tells which lines
    are even then."""
    lines = [line_middle(runs) for runs in found]
    alone = [(i, lines[i]) for i in range(1, len(found) - 1) if len(found[i]) == 1]
    if len(alone) < 2:
        return lines
    slope, offset = np.polyfit(*zip(*alone, strict=True), 1)
    interior = float(np.median([_peak(coverage, found[i]) for i, _ in alone]))
    for i in (0, len(found) - 1):
        even = slope * i + offset
        if lines[i] is None or abs(lines[i] - even) < OFF_LATTICE_CELLS * cell:
            continue
        lo = max(0, int(round(even - reach)))
        hi = min(coverage.size, int(round(even + reach)) + 1)
        near = None
        if hi > lo and coverage[lo:hi].max() >= weakest:
            near = _nearest(line_runs(coverage, lo, hi), even)
        if near is not None and abs(near - even) < OFF_LATTICE_CELLS * cell:
            lines[i] = near
        elif _peak(coverage, found[i]) < BORDER_SHARE * interior:
            # No line near the even place, and what the tooth found off it is far weaker than
            # a line: digits' strokes beside a border the outline cut off. The border is where
            # the spacing puts it.
            lines[i] = float(np.clip(even, 0, coverage.size))
    return lines


def _peak(coverage: np.ndarray, runs: list[Run]) -> float:
    """The highest coverage of a tooth's runs."""
    return max((float(coverage[start:end].max()) for start, end in runs), default=0.0)


def _nearest(runs: list[Run], even: float) -> float | None:
    """The middle of the run nearest ``even``."""
    middles = [(start + end - 1) / 2 for start, end in runs]
    return min(middles, key=lambda m: abs(m - even), default=None)
