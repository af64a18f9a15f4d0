"""The engines' files for the commands, from the settings."""

from __future__ import annotations

from sudoku_batch.pipeline.engine_files import EngineFiles
from sudoku_batch.settings.environment import any_setting_given, cache_dir


def engine_files() -> EngineFiles:
    """Where the engines find their files; without importing pydantic when no
    ``SUDOKU_BATCH_`` variable is set (then each is where its wheel put it)."""
    if not any_setting_given():
        return EngineFiles(cache_dir=cache_dir())
    from sudoku_batch.settings import Settings

    return Settings.from_env().engine_files()
