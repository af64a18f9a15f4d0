"""Image degradations shared by photos and scanned pages. Each takes and returns BGR uint8."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


def move_points(points: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Points (K, 2) through a 3x3 homography, as float32."""
    moved = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), matrix)
    return moved.reshape(-1, 2).astype(np.float32)


def bow(image: np.ndarray, points: np.ndarray, sag: float) -> tuple[np.ndarray, np.ndarray]:
    """The sheet curled like a page lifting from a table: each column sinks by up to ``sag``
    of the image's height, most in the middle and not at the left and right edges, so
    horizontal lines become arcs. Returns the taller image (white below) and ``points`` moved
    with it."""
    h, w = image.shape[:2]
    depth = sag * h

    def sink(x: np.ndarray) -> np.ndarray:
        return depth * (1.0 - ((2.0 * x - w) / w) ** 2)

    extra = int(np.ceil(depth))
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h + extra, dtype=np.float32))
    source_y = (ys - sink(xs)).astype(np.float32)
    bowed = cv2.remap(
        image,
        xs,
        source_y,
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(255, 255, 255),
    )
    moved = points.astype(np.float32).copy()
    moved[:, 1] += sink(moved[:, 0])
    return bowed, moved


def rotate(image: np.ndarray, angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """The image turned by ``angle_deg`` about its centre on white paper, as a sheet lies a
    little askew on a scanner, and the 3x3 matrix that moved its pixels."""
    height, width = image.shape[:2]
    affine = cv2.getRotationMatrix2D((width / 2, height / 2), angle_deg, 1.0)
    turned = cv2.warpAffine(
        image, affine, (width, height), flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255)
    )
    return turned, np.vstack([affine, [0, 0, 1]])


def recolour_ink(image: np.ndarray, ink_bgr: tuple[int, int, int]) -> np.ndarray:
    """Reprint dark ink in another colour, keeping the paper white and greys proportional."""
    ink = 1.0 - cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)[..., None] / 255.0
    paper = np.full(3, 255.0, np.float32)
    return np.clip(paper - ink * (paper - np.array(ink_bgr, np.float32)), 0, 255).astype(np.uint8)


def tint(image: np.ndarray, paper_bgr: np.ndarray) -> np.ndarray:
    """White paper becomes ``paper_bgr``; ink darkens it proportionally."""
    return (image.astype(np.float32) * (paper_bgr / 255.0)).astype(np.uint8)


def uneven_light(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A smooth brightness falloff up to ``strength``, and sometimes a soft-edged shadow."""
    h, w = image.shape[:2]
    # Light varies slowly, so the gain is computed on a coarse grid and scaled up.
    gh, gw = max(2, h // 8), max(2, w // 8)
    coarse = rng.uniform(1.0 - strength, 1.0, (3, 3)).astype(np.float32)
    gain = cv2.resize(coarse, (gw, gh), interpolation=cv2.INTER_LINEAR)
    if strength > 0 and rng.random() < 0.5:
        # A shadow (hand, phone, book spine) is a half-plane with a blurred edge.
        angle = rng.uniform(0, 2 * np.pi)
        x0, y0 = rng.uniform(0, gw), rng.uniform(0, gh)
        xs, ys = np.meshgrid(np.arange(gw, dtype=np.float32), np.arange(gh, dtype=np.float32))
        distance = (xs - x0) * np.cos(angle) + (ys - y0) * np.sin(angle)
        softness = rng.uniform(0.01, 0.08) * max(gw, gh)
        inside = 1.0 / (1.0 + np.exp(np.clip(-distance / softness, -50, 50)))
        gain *= 1.0 - rng.uniform(0.15, 0.4) * min(1.0, strength / 0.3) * inside
    gain = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(image * gain[..., None], 0, 255).astype(np.uint8)


def blur(image: np.ndarray, sigma: float) -> np.ndarray:
    if sigma < 0.2:
        return image
    return cv2.GaussianBlur(image, (0, 0), sigma)


def sensor_noise(image: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Grey (luminance) noise: one value per pixel, a third of the cost of per-channel noise."""
    noise = rng.standard_normal((*image.shape[:2], 1), dtype=np.float32) * np.float32(sigma)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def speckle(image: np.ndarray, rng: np.random.Generator, dots: int) -> np.ndarray:
    """Dust and toner specks: small dark (and a few white) dots anywhere on the page."""
    out = image.copy()
    h, w = image.shape[:2]
    for x, y, radius, dark in zip(
        rng.integers(0, w, dots),
        rng.integers(0, h, dots),
        rng.integers(0, 3, dots),
        rng.random(dots) < 0.8,
        strict=True,
    ):
        colour = (40, 40, 40) if dark else (255, 255, 255)
        cv2.circle(out, (int(x), int(y)), int(radius), colour, -1)
    return out


def jpeg_roundtrip(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


@dataclass(frozen=True)
class ScanStrength:
    """How hard a scanner treats a page: a turn of up to ``rotation_deg`` either way, paper
    grey between ``paper_grey``, blur sigma between ``blur_sigma``, grey noise, JPEG."""

    rotation_deg: float
    paper_grey: tuple[float, float]
    blur_sigma: tuple[float, float]
    noise_sigma: float
    jpeg_quality: int


# A flatbed scan of a book page: turned by up to 1.5 degrees, grey paper, mild blur, noise,
# JPEG 70.
FLATBED = ScanStrength(1.5, (220, 240), (0.5, 0.9), 3.0, 70)
# A careless one (an office copier's scan-to-PDF, a page laid on crooked): turned by up to 4
# degrees, darker paper, a soft focus, more noise, JPEG 40.
ROUGH = ScanStrength(4.0, (195, 230), (1.0, 1.5), 5.0, 40)


def scan(
    image: np.ndarray, rng: np.random.Generator, strength: ScanStrength = FLATBED
) -> np.ndarray:
    """The page as a scanner returns it."""
    image, _ = rotate(image, rng.uniform(-strength.rotation_deg, strength.rotation_deg))
    image = tint(image, np.full(3, rng.uniform(*strength.paper_grey), np.float32))
    image = blur(image, rng.uniform(*strength.blur_sigma))
    image = sensor_noise(image, rng, strength.noise_sigma)
    return jpeg_roundtrip(image, strength.jpeg_quality)
