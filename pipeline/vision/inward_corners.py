"""Cut an outline of grids of different sizes printed against each other into one per grid.

Two grids that touch make one outline. Of the same size and aligned, it is a quadrilateral
that ``pipeline.vision.touching`` splits by its lines; of different sizes, or not aligned, it
is a polygon with inward corners (an L or a T). At such a corner one grid's border runs on
as the border between the two, so the outline is cut along the extension of each side
meeting there, and each piece is a candidate of its own.
"""

from __future__ import annotations

import cv2
import numpy as np

# The outline is simplified to within this share of its perimeter: grid borders are straight.
SIMPLIFY = 0.01
# An inward corner turns by at least this angle (degrees): photographed, a right angle stays
# well above it, and the jags of a simplified ragged outline stay below.
MIN_TURN_DEG = 45
# Both sides meeting at an inward corner are at least this share of the perimeter long: a
# grid's border, not a notch cut by a digit or a caption.
MIN_SIDE_SHARE = 0.015
# An outline filling more of its convex hull than this is one grid or a block of aligned
# grids, whose notches (gaps between grids, digits against the border) are no grid's corner.
MAX_SOLIDITY = 0.95
# A piece that may be a grid fills this share of its convex hull.
MIN_PIECE_SOLIDITY = 0.9
# Cuts are drawn this many pixels wide, enough to part the pieces in an 8-connected mask.
CUT_PX = 3
# A piece may have inward corners of its own (two smaller grids against a larger one, one
# cut off): it is cut again, at most this many times over.
MAX_DEPTH = 1


def pieces_at_inward_corners(
    contour: np.ndarray, min_area: float, depth: int = 0
) -> list[np.ndarray]:
    """The contours of the pieces an outline falls into when cut along each side meeting
    at one of its inward corners, one cut at a time, when the cut leaves at least two solid
    pieces of ``min_area`` (a grid beside a grid, not a grid beside a caption); [] when it
    has no such corner. Each piece with inward corners of its own (a grid with another
    against it) is cut the same way, and its pieces count too."""
    if cv2.contourArea(contour) > MAX_SOLIDITY * cv2.contourArea(cv2.convexHull(contour)):
        return []
    perimeter = cv2.arcLength(contour, closed=True)
    polygon = cv2.approxPolyDP(contour, SIMPLIFY * perimeter, closed=True).reshape(-1, 2)
    if len(polygon) < 5:
        return []
    corners = _inward_corners(polygon.astype(np.float64), MIN_SIDE_SHARE * perimeter)
    if not corners:
        return []
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(mask, [contour], -1, 255, cv2.FILLED, offset=(1 - x, 1 - y))
    reach = float(w + h)
    pieces = []
    for corner, direction in corners:
        cut = mask.copy()
        start = corner - (x - 1, y - 1)
        end = start + reach * direction
        cv2.line(cut, _point(start), _point(end), 0, CUT_PX)
        found, _ = cv2.findContours(cut, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        grids = [piece for piece in found if _solid(piece, min_area)]
        if len(grids) > 1:
            pieces.extend(piece + (x - 1, y - 1) for piece in grids)
            if depth < MAX_DEPTH:
                for piece in grids:
                    more = pieces_at_inward_corners(piece, min_area, depth + 1)
                    pieces.extend(p + (x - 1, y - 1) for p in more)
    return pieces


def _inward_corners(polygon: np.ndarray, min_side: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each inward corner of a simplified outline, twice: with the direction of each side
    meeting there, carried on past it."""
    before, after = np.roll(polygon, 1, axis=0), np.roll(polygon, -1, axis=0)
    incoming, outgoing = polygon - before, after - polygon
    lengths_in = np.linalg.norm(incoming, axis=1)
    lengths_out = np.linalg.norm(outgoing, axis=1)
    # The z of the 2-D cross product (np.cross of 2-vectors is deprecated in NumPy 2).
    cross = incoming[:, 0] * outgoing[:, 1] - incoming[:, 1] * outgoing[:, 0]
    turn = cross / np.maximum(lengths_in * lengths_out, 1e-9)
    # Turning against the outline's own direction of travel is turning inwards.
    orientation = np.sign(_signed_area(polygon))
    inward = (
        (turn * orientation < -np.sin(np.deg2rad(MIN_TURN_DEG)))
        & (lengths_in >= min_side)
        & (lengths_out >= min_side)
    )
    corners = []
    for k in np.flatnonzero(inward):
        corners.append((polygon[k], incoming[k] / lengths_in[k]))
        corners.append((polygon[k], -outgoing[k] / lengths_out[k]))
    return corners


def _solid(piece: np.ndarray, min_area: float) -> bool:
    """Whether a piece is large and fills its convex hull as a grid does."""
    area = cv2.contourArea(piece)
    return area >= min_area and area >= MIN_PIECE_SOLIDITY * cv2.contourArea(cv2.convexHull(piece))


def _signed_area(polygon: np.ndarray) -> float:
    x, y = polygon[:, 0], polygon[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def _point(p: np.ndarray) -> tuple[int, int]:
    return int(round(p[0])), int(round(p[1]))
