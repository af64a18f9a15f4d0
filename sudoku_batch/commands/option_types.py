"""argparse types that check an option's value as it is parsed, before any work starts: a
bad one ends the command with one line on stderr and exit 2 (``cli.OneLineErrors``)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

# PDF pages are rasterised at this many dots per inch at most and at least: below 72 (a pixel
# per point) a book's grid cells are a few pixels wide and nothing can be read; above 600 an
# A4 page is 35 MP, and bigger pages pass the image-size bound (SUDOKU_BATCH_MAX_IMAGE_PIXELS).
MIN_DPI = 72
MAX_DPI = 600


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An int from ``low`` (to ``high``, when given)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            within = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise argparse.ArgumentTypeError(f"{value} is out of range: give {within}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its own messages
    return parse


def seconds(text: str, *, zero: bool = False) -> float:
    """A finite number of seconds above 0 (``zero``: or 0)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        within = "0 or more" if zero else "above 0"
        raise argparse.ArgumentTypeError(f"{text} is out of range: give seconds {within}")
    return value


def positive_seconds(text: str) -> float:
    return seconds(text)


def seconds_or_zero(text: str) -> float:
    return seconds(text, zero=True)


jobs = whole_number(1)
dpi = whole_number(MIN_DPI, MAX_DPI)
port = whole_number(1, 65535)


def out_folder(text: str) -> Path:
    """A folder to write into: it may not exist yet, but it must not be a file (nor lie
    under one)."""
    path = Path(text)
    existing = next((p for p in (path, *path.parents) if p.exists()), None)
    if existing is not None and not existing.is_dir():
        where = "is a file" if existing == path else f"is under {existing}, a file"
        raise argparse.ArgumentTypeError(f"{text} {where}; name a folder (new or existing)")
    return path


def out_file(text: str) -> Path:
    """A file to write: not a folder, and not under a file."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; name the file to write")
    out_folder(str(path.parent))
    return path
