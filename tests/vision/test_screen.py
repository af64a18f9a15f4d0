"""A halftone screen is found on a board, with its dot spacing, from the board's spectrum; a
board printed plainly, in noise or with sharp lines, shows none."""

from __future__ import annotations

import numpy as np
import pytest

from sudoku_batch.pipeline.vision.screen import descreened, screen_period

SIDE = 432  # a 9x9 board of 48 px cells


def _board(rng: np.random.Generator, noise: float) -> np.ndarray:
    board = np.full((SIDE, SIDE), 230.0)
    board[:, ::48] = 20  # the grid's lines: sharp harmonics along the axes
    board[::48, :] = 20
    return np.clip(board + rng.normal(0, noise, board.shape), 0, 255)


def _screened(board: np.ndarray, period: float, angle_deg: float) -> np.ndarray:
    ys, xs = np.mgrid[0:SIDE, 0:SIDE].astype(np.float64)
    turn = np.deg2rad(angle_deg)
    u = xs * np.cos(turn) + ys * np.sin(turn)
    v = -xs * np.sin(turn) + ys * np.cos(turn)
    dots = (np.cos(2 * np.pi * u / period) + np.cos(2 * np.pi * v / period) + 2) / 4 < 0.3
    return np.where(dots, 40.0, board)


@pytest.mark.parametrize(("period", "angle"), [(3.5, 45), (4.5, 20), (5.0, 60)])
def test_a_screen_is_found_with_its_dot_spacing(period: float, angle: float) -> None:
    board = _screened(_board(np.random.default_rng(1), 3.0), period, angle)

    found = screen_period(board.astype(np.uint8))

    assert found == pytest.approx(period, rel=0.15)


@pytest.mark.parametrize(("period", "angle"), [(6.0, 55), (7.0, 35), (8.0, 10), (9.5, 55)])
def test_a_screen_too_coarse_for_small_windows_is_found_with_its_dot_spacing(
    period: float, angle: float
) -> None:
    # Five or so of its dots to a small window: its peak there stands only a few times above
    # its ring.
    board = _screened(_board(np.random.default_rng(4), 8.0), period, angle)

    found = screen_period(board.astype(np.uint8))

    assert found == pytest.approx(period, rel=0.1)


@pytest.mark.parametrize("noise", [0.0, 4.0, 15.0])
def test_a_plain_board_shows_no_screen(noise: float) -> None:
    board = _board(np.random.default_rng(2), noise).astype(np.uint8)

    assert screen_period(board) is None
    assert descreened(board) is None


def test_a_screen_blurred_away_leaves_a_flat_tint() -> None:
    paper = np.full((SIDE, SIDE), 230.0)
    board = _screened(paper, 4.5, 30).astype(np.uint8)

    flat = descreened(board)

    assert flat is not None
    inner = flat[20:-20, 20:-20].astype(np.float64)
    assert inner.std() < 0.15 * board.astype(np.float64).std()


def test_stripes_one_way_are_no_screen() -> None:
    # Print shrunk without smoothing aliases into stripes, a sharp peak in one direction only;
    # a screen's dots make a second a quarter-turn round.
    ys, xs = np.mgrid[0:SIDE, 0:SIDE].astype(np.float64)
    turn = np.deg2rad(30)
    stripes = np.cos(2 * np.pi * (xs * np.cos(turn) + ys * np.sin(turn)) / 4.0) > 0.4
    board = np.where(stripes, 40.0, _board(np.random.default_rng(3), 3.0)).astype(np.uint8)

    assert screen_period(board) is None
