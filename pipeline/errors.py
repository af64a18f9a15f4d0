"""Typed, user-facing errors.

Each error carries a stable ``code`` (stored in the database and the results file) and a message
that tells a person what happened and what to do about it. A stage raises these; the runner turns
them into a failed page or puzzle and the batch goes on.
"""

from __future__ import annotations

import traceback
from pathlib import Path


class SudokuBatchError(Exception):
    """Base class: something about one input went wrong, and the user should be told."""

    code = "failed"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class UnreadableInput(SudokuBatchError):
    """A file could not be opened as an image, PDF or archive."""

    code = "unreadable_input"


class UnsupportedInput(SudokuBatchError):
    """A file's type is not one sudoku-batch reads."""

    code = "unsupported_input"


class TooLarge(SudokuBatchError):
    """An input is bigger than the limits allow (pixels, page size, pages, inflated bytes):
    refused before it is decoded, so one bomb cannot take the machine's memory."""

    code = "too_large"


class TooSmall(SudokuBatchError):
    """An image too small on a side to hold a grid (a 1x1 pixel, a 2-pixel-high strip)."""

    code = "too_small"


class EncryptedInput(SudokuBatchError):
    """A password-protected PDF or zip member."""

    code = "encrypted"


class UnsafePath(SudokuBatchError):
    """A zip member whose name climbs out of the archive (``../``) or is absolute."""

    code = "unsafe_path"


class NotUtf8(UnreadableInput):
    """A text file of puzzles in another encoding than UTF-8."""

    code = "not_utf8"


class WorkerCrashed(SudokuBatchError):
    """The process working on a page died (killed, out of memory, a crash in native code)."""

    code = "worker_crashed"


class Interrupted(SudokuBatchError):
    """The run was stopped (Ctrl-C, SIGTERM) before this page was done; running the same
    command again resumes it."""

    code = "interrupted"


class NoGridFound(SudokuBatchError):
    """A page was read but no Sudoku grid was found on it."""

    code = "no_grid"


class LatticeNotFound(SudokuBatchError):
    """A board was found but its rows and columns could not be measured."""

    code = "no_lattice"


class InvalidPuzzle(SudokuBatchError):
    """A puzzle's givens cannot be a Sudoku: wrong size, bad symbols, clashing digits."""

    code = "invalid"


class InvalidRegions(InvalidPuzzle):
    """A jigsaw's regions that do not partition its N x N cells into N connected regions of N
    cells each."""

    code = "invalid_regions"


class EngineUnavailable(SudokuBatchError):
    """An OCR engine or SAT backend is not installed or cannot start."""

    code = "engine_unavailable"


class SolverFailed(SudokuBatchError):
    """The SAT solver crashed or answered something that is not a valid result."""

    code = "solver_failed"


class MalformedPuzzleText(InvalidPuzzle):
    """A line of a puzzle text file is not a puzzle at all: wrong length, unknown characters."""

    code = "malformed_text"


class DatabaseUnavailable(SudokuBatchError):
    """The database cannot be reached, does not exist or refuses the connection."""

    code = "database_unavailable"


class InternalError(SudokuBatchError):
    """A bug, not a bad input: recorded against its page or puzzle so the batch goes on."""

    code = "internal_error"

    @classmethod
    def wrapping(cls, error: Exception, stage: str) -> InternalError:
        """The user-facing record of an unexpected exception, with where it was raised."""
        frames = traceback.extract_tb(error.__traceback__)
        where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
        return cls(
            f"an internal error stopped the {stage} stage ({type(error).__name__}: {error})"
            f"{where}; please report it with this input"
        )


def error_classes() -> list[type[SudokuBatchError]]:
    """Every error class of the project with its own code (for docs/errors.md and its test)."""
    found, todo = [], [SudokuBatchError]
    while todo:
        cls = todo.pop()
        if "code" in vars(cls):  # a subclass that only narrows its parent's error is not listed
            found.append(cls)
        todo += cls.__subclasses__()
    return sorted(found, key=lambda cls: cls.code)


def error_for_code(code: str | None) -> type[SudokuBatchError]:
    """The class raising ``code`` (a refused input unit carries only its code across
    processes); unknown codes are the base class."""
    for cls in error_classes():
        if cls.code == code:
            return cls
    return SudokuBatchError
