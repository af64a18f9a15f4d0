"""Settings for every driver and server: the one place that reads environment variables.

``settings.model`` holds the validated ``Settings`` object (pydantic), built once at start-up
and passed down; ``settings.environment`` holds what must be known before that object can be
built, or without pydantic's import (the rater's core, thread counts, the cache folder). The
names of ``settings.model`` are served from here on first use, so importing this package does
not import pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sudoku_batch.settings.model import InvalidSetting, Settings

__all__ = ["InvalidSetting", "Settings"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from sudoku_batch.settings import model

        return getattr(model, name)
    raise AttributeError(f"module 'settings' has no attribute {name!r}")
