"""What the environment says before the ``Settings`` object exists, or where building it would
cost pydantic's import.

The rater's core is chosen when ``pipeline.rating`` is first imported, before any caller could
pass it, so ``pipeline`` imports this module; it therefore imports only the standard library
(tests/test_layout.py checks). The thread-count variables of the numeric libraries count only
if set before those libraries load.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

PREFIX = "SUDOKU_BATCH_"
PURE_RATER = PREFIX + "PURE_RATER"
CACHE_DIR = PREFIX + "CACHE_DIR"

# Set for the libraries a process loads, unless the user set them. One OpenMP / OpenBLAS /
# ONNX Runtime thread per process: processes scale, not threads, so models never fight over
# the cores.
THREAD_DEFAULTS = {"OMP_NUM_THREADS": "1"}
# PaddleX otherwise asks the model hosters whether they are reachable when it is imported,
# which without network only wastes time.
OFFLINE_DEFAULTS = {"PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK": "True"}


def any_setting_given(env: Mapping[str, str] | None = None) -> bool:
    """Whether any ``SUDOKU_BATCH_`` variable is set (if not, every setting is its default)."""
    return any(name.startswith(PREFIX) for name in (os.environ if env is None else env))


def pure_rater() -> bool:
    """Whether ``SUDOKU_BATCH_PURE_RATER=1`` asks for the rater's .py sources over its
    compiled modules."""
    return os.environ.get(PURE_RATER) == "1"


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where work is kept for later processes (the empty schema, the OCR models' optimised
    graphs): $SUDOKU_BATCH_CACHE_DIR, else $XDG_CACHE_HOME/sudoku-batch, else
    ~/.cache/sudoku-batch."""
    env = os.environ if env is None else env
    if env.get(CACHE_DIR):
        return Path(env[CACHE_DIR])
    base = env.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "sudoku-batch"


def set_library_defaults() -> None:
    """Set the defaults above the user left unset; call before numpy and the OCR libraries
    are imported."""
    for name, value in THREAD_DEFAULTS.items():
        os.environ.setdefault(name, value)
    set_offline_defaults()


def set_offline_defaults() -> None:
    """Set ``OFFLINE_DEFAULTS`` the user left unset; call before an OCR engine is made."""
    for name, value in OFFLINE_DEFAULTS.items():
        os.environ.setdefault(name, value)
