"""Settings for every driver and server, read once from the environment.

One frozen object is built at start-up (``Settings.from_env()``) and passed down, so nothing
below the entry points reads environment variables itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import SudokuBatchError

PREFIX = "SUDOKU_BATCH_"
DEFAULT_DATA_DIR = "sudoku-batch-data"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/0"


class InvalidSetting(SudokuBatchError):
    """An environment variable holds a value sudoku-batch cannot use."""

    code = "invalid_setting"


@dataclass(frozen=True)
class Settings:
    """Where data lives, which services to talk to, and which engines to run.

    Environment variables (all optional), each prefixed ``SUDOKU_BATCH_``: ``DATABASE_URL``
    (default: a SQLite file in the data dir), ``BROKER_URL`` (Redis; also the Celery result
    backend unless ``RESULT_BACKEND_URL`` is set), ``REDIS_KEY_PREFIX`` (keeps deployments or
    test runs apart on one Redis), ``DATA_DIR`` (shared by the API and every worker),
    ``OCR_ENGINE``, ``SAT_BACKEND``, ``SOLVE_TIMEOUT`` (seconds per puzzle), ``API_URL`` (for
    ``submit``). And Flower's own ``FLOWER_BASIC_AUTH`` (``user:password``, comma-separated
    for several users).
    """

    data_dir: Path
    database_url: str
    broker_url: str = DEFAULT_BROKER_URL
    result_backend_url: str = DEFAULT_BROKER_URL
    redis_key_prefix: str = ""
    ocr_engine: str | None = None  # None: the pipeline's default engine
    sat_backend: str | None = None  # None: the pipeline's default backend
    solve_timeout: float = 60.0
    api_url: str = "http://127.0.0.1:8000"
    flower_basic_auth: str = ""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        data_dir = Path(env.get(PREFIX + "DATA_DIR", DEFAULT_DATA_DIR)).resolve()
        broker_url = env.get(PREFIX + "BROKER_URL", DEFAULT_BROKER_URL)
        return cls(
            data_dir=data_dir,
            database_url=env.get(
                PREFIX + "DATABASE_URL", f"sqlite:///{data_dir / 'sudoku-batch.sqlite'}"
            ),
            broker_url=broker_url,
            result_backend_url=env.get(PREFIX + "RESULT_BACKEND_URL", broker_url),
            redis_key_prefix=env.get(PREFIX + "REDIS_KEY_PREFIX", ""),
            ocr_engine=env.get(PREFIX + "OCR_ENGINE") or None,
            sat_backend=env.get(PREFIX + "SAT_BACKEND") or None,
            solve_timeout=_positive_float(env, PREFIX + "SOLVE_TIMEOUT", 60.0),
            api_url=env.get(PREFIX + "API_URL", "http://127.0.0.1:8000"),
            flower_basic_auth=env.get("FLOWER_BASIC_AUTH", ""),
        )


def _positive_float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if value <= 0:
        raise InvalidSetting(f"{name} must be a positive number of seconds, not {raw!r}")
    return value
