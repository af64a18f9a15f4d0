from __future__ import annotations

import pytest

from sudoku_batch.pipeline.recognise.ocr.ppocr_onnx import PpOcrOnnxEngine


@pytest.fixture(scope="session")
def engine() -> PpOcrOnnxEngine:
    # One session for the whole run, as a worker process would hold it.
    return PpOcrOnnxEngine()
