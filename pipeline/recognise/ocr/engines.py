"""OCR engines by name. A new engine is a new module plus one line here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from sudoku_batch.pipeline.engine_files import WHEEL_FILES, EngineFiles
from sudoku_batch.pipeline.errors import EngineUnavailable
from sudoku_batch.pipeline.recognise.ocr.base import OcrEngine
from sudoku_batch.pipeline.recognise.ocr.glyph_groups import GlyphGroupingEngine


def _ppocr_onnx(files: EngineFiles, **options: object) -> OcrEngine:
    from sudoku_batch.pipeline.recognise.ocr.ppocr_onnx import PpOcrOnnxEngine

    model, cache_dir = files.ppocr_rec_model, files.cache_dir
    return PpOcrOnnxEngine(model, cache_dir=cache_dir, **options)  # type: ignore[arg-type]


def _paddle_native(files: EngineFiles, **options: object) -> OcrEngine:
    # This engine keeps no work between processes: ``files.cache_dir`` is not used.
    from sudoku_batch.pipeline.recognise.ocr.paddle_native import PaddleNativeEngine

    return PaddleNativeEngine(files.paddle_rec_dir, **options)  # type: ignore[arg-type]


# Factories import their module when called, so an engine whose dependencies are missing only
# fails when someone asks for it.
ENGINES: Mapping[str, Callable[..., OcrEngine]] = MappingProxyType(
    {
        "ppocr-onnx": _ppocr_onnx,
        "paddle-native": _paddle_native,
    }
)
DEFAULT_ENGINE = "ppocr-onnx"


def make_engine(
    name: str = DEFAULT_ENGINE,
    *,
    files: EngineFiles = WHEEL_FILES,
    each_cell: bool = False,
    **options: object,
) -> OcrEngine:
    """A new engine of the named kind; create one per process and reuse it. ``files`` says
    where its model is and where it may keep work for later processes.

    The engine reads each distinct glyph of a board once
    (``pipeline.recognise.ocr.glyph_groups``); ``each_cell`` makes it read every crop."""
    try:
        factory = ENGINES[name]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise EngineUnavailable(f"unknown OCR engine {name!r} (known: {known})") from None
    engine = factory(files, **options)
    return engine if each_cell else GlyphGroupingEngine(engine)
