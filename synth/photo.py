"""Turn a clean rendered grid into something like a phone photo of a printed puzzle."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from sudoku_batch.synth import degrade

RED_INK_BGR = (40, 30, 200)


@dataclass(frozen=True)
class Photo:
    """A photo-like image and where the grid's corners (TL, TR, BR, BL, content order) went."""

    image: np.ndarray = field(repr=False)  # BGR, uint8
    corners: np.ndarray = field(repr=False)  # (4, 2) float32, image pixels


@dataclass(frozen=True)
class PhotoStyle:
    """How rough the photo may be; each effect is drawn uniformly between none and its limit."""

    max_rotation_deg: float = 6.0
    max_tilt: float = 0.08  # perspective: corner displacement as a fraction of the grid side
    max_blur_sigma: float = 1.4
    max_noise_sigma: float = 6.0
    max_light_falloff: float = 0.45
    jpeg_quality: tuple[int, int] = (40, 90)
    red_ink: bool = False
    quarter_turns: bool = False  # also turn by a random multiple of 90 degrees
    max_curl: float = 0.0  # the sheet bowed: its middle sinks by up to this share of its height


def photograph(
    image: np.ndarray,
    corners: np.ndarray,
    rng: np.random.Generator,
    style: PhotoStyle = PhotoStyle(),
) -> Photo:
    """Lay ``image`` (white paper, e.g. a RenderedGrid's) on a table and photograph it.

    The paper is tinted, warped in perspective and rotated onto a textured background, then lit
    unevenly, blurred, noised and JPEG-compressed. ``corners`` follow the warp exactly.
    """
    # More paper around the grid, so the sheet's edge is sometimes in the frame and sometimes not.
    border = [int(b) for b in rng.uniform(0, 0.4, 4) * image.shape[0]]
    image = cv2.copyMakeBorder(image, *border, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    corners = corners + np.array([border[2], border[0]], np.float32)
    if style.red_ink:
        image = degrade.recolour_ink(image, RED_INK_BGR)
    # Drawn only when asked for, so that photos without curl stay as they were for a seed.
    if style.max_curl > 0:
        image, corners = degrade.bow(image, corners, rng.uniform(0, style.max_curl))
    paper_bgr = rng.uniform(215, 250) * np.array([rng.uniform(0.9, 1.0), rng.uniform(0.96, 1.0), 1])
    image = degrade.tint(image, paper_bgr)

    h, w = image.shape[:2]
    side = float(np.linalg.norm(corners[1] - corners[0]))
    angle = np.deg2rad(rng.uniform(-style.max_rotation_deg, style.max_rotation_deg))
    if style.quarter_turns:
        angle += rng.integers(0, 4) * np.pi / 2
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    source = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    target = (source - [w / 2, h / 2]) @ rotation.T
    target += rng.uniform(-style.max_tilt, style.max_tilt, (4, 2)) * side
    matrix = cv2.getPerspectiveTransform(source, target.astype(np.float32))

    # Frame the shot around the grid: a random margin on each side, so the paper's edge may be
    # in view or cut off, but the grid always is whole.
    grid = degrade.move_points(corners, matrix)
    pad = rng.uniform(0.08, 0.35, 4) * side
    left, top = grid.min(axis=0) - pad[:2]
    right, bottom = grid.max(axis=0) + pad[2:]
    shift = np.array([[1, 0, -left], [0, 1, -top], [0, 0, 1]])
    matrix = shift @ matrix
    size = (int(np.ceil(right - left)), int(np.ceil(bottom - top)))

    photo = table_background(size, rng)
    cv2.warpPerspective(
        image, matrix, size, dst=photo, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT
    )
    photo = degrade.uneven_light(photo, rng, rng.uniform(0, style.max_light_falloff))
    photo = degrade.blur(photo, rng.uniform(0, style.max_blur_sigma))
    photo = degrade.sensor_noise(photo, rng, rng.uniform(0, style.max_noise_sigma))
    photo = degrade.jpeg_roundtrip(photo, rng.integers(*style.jpeg_quality, endpoint=True))
    return Photo(photo, degrade.move_points(corners, matrix))


def table_background(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A plain, softly mottled surface in a random (mostly darker than paper) colour."""
    w, h = size
    colour = rng.uniform(40, 200, 3).astype(np.float32)
    mottle = cv2.resize(rng.normal(0, 12, (8, 8)).astype(np.float32), (w, h))
    return np.clip(colour + mottle[..., None], 0, 255).astype(np.uint8)
