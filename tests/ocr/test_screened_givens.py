"""Givens printed through a coarse halftone screen (synth.phantom_styles ``coarse_screen_sweep``)
are read as their digits: the recogniser reads the board blurred over the screen's dot spacing,
whose dots, read as strokes, made a 3 a 2 and a 7 a 1."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.synth.phantom_styles import coarse_screen_sweep
from tests.ocr.boards import givens_read_and_true

# Seeds that still fail. 5: a heavy tint through a coarse screen breaks the thin lines into dots,
# no lattice is found (tests/vision/test_phantom_givens.py DEVELOPMENT_FAILING). 6 and 10: a
# heavy tint in dim light, one given of each (an 8, a 6) too faint once blurred.
STILL_FAILING = {5, 6, 10}


@pytest.mark.parametrize(
    "seed",
    [
        pytest.param(seed, marks=pytest.mark.xfail(strict=True)) if seed in STILL_FAILING else seed
        for seed in range(1, 13)
    ],
)
def test_givens_through_a_coarse_screen_are_read_as_their_digits(engine, seed: int) -> None:
    read, truth = givens_read_and_true(coarse_screen_sweep(np.random.default_rng(seed)), engine)

    assert read == truth
