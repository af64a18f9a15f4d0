"""Difficulty ratings in the manner of Sudoku Explainer (see docs/book_check.md)."""

from pipeline.rating.levels import LEVELS, level_of
from pipeline.rating.rater import Rating, rate_puzzle

__all__ = ["LEVELS", "Rating", "level_of", "rate_puzzle"]
