"""Difficulty ratings in the manner of Sudoku Explainer (see docs/book_check.md)."""

from pathlib import Path

from sudoku_batch.pipeline.rating.compiled_core import select
from sudoku_batch.settings.environment import pure_rater

# Decided before any technique module is imported: the compiled core, or the sources. Asked of
# settings here (pipeline's one import of it, a standard-library leaf): no caller is there yet
# to pass it as an argument.
COMPILED = select(__name__, Path(__file__).parent, pure=pure_rater())

from sudoku_batch.pipeline.rating.levels import LEVELS, level_of  # noqa: E402
from sudoku_batch.pipeline.rating.rater import Rating, rate_puzzle  # noqa: E402

__all__ = ["COMPILED", "LEVELS", "Rating", "level_of", "rate_puzzle"]
