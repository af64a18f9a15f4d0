"""Errors of the command line itself (as opposed to one input's)."""

from __future__ import annotations

from sudoku_batch.pipeline.errors import SudokuBatchError


class BadArguments(SudokuBatchError):
    """Options that do not go together, or name something that does not exist."""

    code = "bad_arguments"
