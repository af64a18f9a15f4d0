"""Boards in noisy, dim photos are found: the page is denoised before binarising when its
noise spreads wider than the threshold's offset, and a shadow's edge is no ink there
(pipeline.vision.outlines)."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.vision.find_boards import find_boards
from sudoku_batch.pipeline.vision.noise import noise_sigma
from sudoku_batch.synth.phantom_styles import STYLES


@pytest.mark.parametrize("sigma", [3.0, 8.0, 15.0])
def test_noise_sigma_measures_the_noise_added_to_a_page(sigma: float) -> None:
    rng = np.random.default_rng(0)
    page = np.full((300, 300), 180.0)
    page[100:105, :] = 40.0  # a line: edges are few, and the measure ignores them
    noisy = np.clip(page + rng.normal(0, sigma, page.shape), 0, 255).astype(np.uint8)

    assert noise_sigma(noisy) == pytest.approx(sigma, rel=0.15)


# Seeds whose board was lost in noise before: speckle joined its lines into blobs (noise_sweep
# 5, low_light 6); the dark side of a shadow's edge, ink beside the mean, joined the grid's mesh
# to the shadow's outline (shadow_noise_sweep 26); digits beside a border the outline cut off
# were taken for the border (noise_sweep 8, shadow_noise_sweep 2, read as a 4x4, and 15).
@pytest.mark.parametrize(
    ("style", "seed"),
    [
        ("noise_sweep", 5),
        ("low_light", 6),
        ("shadow_noise_sweep", 2),
        ("shadow_noise_sweep", 15),
        ("shadow_noise_sweep", 26),
        ("noise_sweep", 8),
    ],
)
def test_a_board_in_a_noisy_photo_is_found(style: str, seed: int) -> None:
    photo = STYLES[style](np.random.default_rng(seed))

    found = find_boards(photo.image)

    assert len(found) == 1
    assert np.abs(found[0].corners - photo.corners[0]).max() < 3.0
