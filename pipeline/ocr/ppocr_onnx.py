"""Digit reading with PaddleOCR's PP-OCRv6 small text recogniser, run by ONNX Runtime.

The model file ships inside the ``rapidocr`` wheel; we use only the file, never rapidocr's
pipeline or any downloader (workers have no network). Its output is [lines, frames, classes] of
per-frame probabilities; class 0 is the CTC blank, class i (1..) is line i-1 of the character
list in the model's metadata, and one trailing class, after the list, is the space.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import numpy as np
import onnxruntime as ort

from pipeline.errors import EngineUnavailable
from pipeline.ocr.ctc_lines import CtcLineEngine

MODEL_FILE = "PP-OCRv6_rec_small.onnx"
MODEL_ENV = "SUDOKU_BATCH_PPOCR_REC_MODEL"

# Temperature applied to the per-value log-likelihoods before normalising them into
# confidences. Measured by bench/ocr_calibration.py on the 159 wichtounet v2-train photos that
# have corners, 4,626 givens read once with the true corners and once with each corner moved up
# to 0.15 cell (0 and 6 errors): at 1.0, readings with confidence >= 0.99 were all right (9,210
# of 9,252 readings), and any temperature up to 3.7 keeps them >= 99.9% right. The likelihood-
# optimal temperature is 0.92, a flat optimum; 1.0 sits on its less confident side.
TEMPERATURE = 1.0


def find_model(path: str | os.PathLike[str] | None = None) -> Path:
    """The recogniser's ONNX file: ``path`` if given, else $SUDOKU_BATCH_PPOCR_REC_MODEL, else
    the copy inside the installed rapidocr package (located without importing it)."""
    if path is None:
        path = os.environ.get(MODEL_ENV) or None
    if path is not None:
        model = Path(path)
        if not model.is_file():
            raise EngineUnavailable(f"PP-OCR recogniser model not found at {model}")
        return model
    spec = importlib.util.find_spec("rapidocr")
    if spec is None or not spec.submodule_search_locations:
        raise EngineUnavailable(
            f"PP-OCR recogniser model not found: install the rapidocr wheel or set {MODEL_ENV}"
        )
    for folder in spec.submodule_search_locations:
        model = Path(folder) / "models" / MODEL_FILE
        if model.is_file():
            return model
    raise EngineUnavailable(
        f"the installed rapidocr has no models/{MODEL_FILE}; set {MODEL_ENV} to the model file"
    )


def open_session(model: Path, threads: int) -> ort.InferenceSession:
    options = ort.SessionOptions()
    # One thread per process: the runner parallelises over processes, and measured throughput
    # was better with one intra-op thread than two.
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    try:
        return ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ONNX Runtime raises its own untyped exceptions
        raise EngineUnavailable(f"cannot load PP-OCR recogniser {model}: {exc}") from exc


class PpOcrOnnxEngine(CtcLineEngine):
    """PP-OCRv6 small, read through ONNX Runtime in this process."""

    name = "ppocr-onnx"

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        threads: int = 1,
        temperature: float = TEMPERATURE,
    ):
        self.model_path = find_model(model_path)
        self._session = open_session(self.model_path, threads)
        self._input = self._session.get_inputs()[0].name
        metadata = self._session.get_modelmeta().custom_metadata_map
        if "character" not in metadata:
            raise EngineUnavailable(f"{self.model_path} has no character list in its metadata")
        # Class 0 is the blank, then the listed characters, then the space.
        characters = ["<blank>", *metadata["character"].split("\n"), " "]
        super().__init__(characters, temperature)

    def run_lines(self, lines: np.ndarray) -> np.ndarray:
        return self._session.run(None, {self._input: lines})[0]
