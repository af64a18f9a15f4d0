"""The OCR engine seam: crops of given cells in, digit readings out.

A second engine is a new module implementing ``OcrEngine``, registered in
``pipeline.recognise.ocr.engines``; the stages only ever see this interface.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import numpy as np

from sudoku_batch.pipeline.reading import DigitReading


def digit_symbols(size: int) -> Mapping[str, int]:
    """Every printed symbol that can stand for a digit of an N x N Sudoku, mapped to its value.

    Digits 1..9 print as themselves; beyond 9 books use either two-digit numbers (10..16) or
    letters (A=10, B=11, ...), and both conventions are accepted.
    """
    symbols: dict[str, int] = {}
    for value in range(1, size + 1):
        symbols[str(value)] = value
        if value >= 10:
            symbols[chr(ord("A") + value - 10)] = value
    return symbols


class OcrEngine(Protocol):
    """Reads digits. Runs in the worker process that calls it, one crop batch per board; it must
    not start threads or processes of its own beyond what it is configured with (the runner owns
    the cores)."""

    name: str

    def read_digits(
        self, crops: Sequence[np.ndarray], symbols: Mapping[str, int]
    ) -> list[DigitReading]:
        """One reading per crop (grayscale uint8), decoding restricted to ``symbols``."""
        ...
