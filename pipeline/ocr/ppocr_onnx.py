"""Digit reading with PaddleOCR's PP-OCRv6 small text recogniser, run by ONNX Runtime.

The model file ships inside the ``rapidocr`` wheel; we use only the file, never rapidocr's
pipeline or any downloader (workers have no network). Its output is [lines, frames, classes] of
per-frame probabilities; class 0 is the CTC blank, class i (1..) is line i-1 of the character
list in the model's metadata, and one trailing class, after the list, is the space.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import onnxruntime as ort

from pipeline.errors import EngineUnavailable
from pipeline.ocr.ctc import sequence_log_likelihoods
from pipeline.ocr.text_lines import FRAME_WIDTH, line_batch
from pipeline.reading import DigitReading

MODEL_FILE = "PP-OCRv6_rec_small.onnx"
MODEL_ENV = "SUDOKU_BATCH_PPOCR_REC_MODEL"
BLANK = 0

# Slot widths: one character per cell reads well in 40 columns (5 frames; 32 columns cost a
# fifth less but made 39 errors instead of 5 in 4,626 cells read with misplaced corners);
# two-character symbols (10..16) need the whole 48-column cell. Lines of up to ten slots.
SINGLE_SLOT = 40
DOUBLE_SLOT = 48
SLOTS_PER_LINE = 10
READINGS = 3  # the digit and two runner-ups

# Temperature applied to the per-value log-likelihoods before normalising them into
# confidences. Measured by bench/ocr_calibration.py on the 159 wichtounet v2-train photos that
# have corners, 4,626 givens read once with the true corners and once with each corner moved up
# to 0.15 cell (0 and 6 errors): at 1.0, readings with confidence >= 0.99 were all right (9,210
# of 9,252 readings), and any temperature up to 3.7 keeps them >= 99.9% right. The likelihood-
# optimal temperature is 0.92, a flat optimum; 1.0 sits on its less confident side.
TEMPERATURE = 1.0

LOG_FLOOR = 1e-30  # probabilities are clipped here before the log, so log(0) never occurs


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


class PpOcrOnnxEngine:
    """Reads given-cell crops as lines of text and scores each allowed symbol under CTC."""

    name = "ppocr-onnx"

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        threads: int = 1,
        temperature: float = TEMPERATURE,
    ):
        self.model_path = find_model(model_path)
        self.temperature = temperature
        self._session = open_session(self.model_path, threads)
        self._input = self._session.get_inputs()[0].name
        metadata = self._session.get_modelmeta().custom_metadata_map
        if "character" not in metadata:
            raise EngineUnavailable(f"{self.model_path} has no character list in its metadata")
        characters = metadata["character"].split("\n")
        self._class_of = {char: index + 1 for index, char in enumerate(characters)}

    def frame_probabilities(self, crops: Sequence[np.ndarray], slot_width: int) -> np.ndarray:
        """Per-crop frame probabilities [crops, frames per slot, classes], one ONNX call."""
        lines = line_batch(crops, slot_width, SLOTS_PER_LINE)
        x = (lines / 255.0 - 0.5) / 0.5  # PP-OCR's normalisation, to -1..1
        x = np.repeat(x[:, None], 3, axis=1).astype(np.float32)
        probs = self._session.run(None, {self._input: x})[0]
        frames = slot_width // FRAME_WIDTH
        slots = lines.shape[2] // slot_width
        per_slot = probs.reshape(len(lines) * slots, frames, probs.shape[2])
        return per_slot[: len(crops)]

    def spell(self, symbol: str) -> tuple[int, ...]:
        try:
            return tuple(self._class_of[char] for char in symbol)
        except KeyError as exc:
            raise EngineUnavailable(f"the recogniser cannot read the symbol {symbol!r}") from exc

    def value_log_likelihoods(
        self, crops: Sequence[np.ndarray], symbols: Mapping[str, int]
    ) -> tuple[list[int], np.ndarray]:
        """The distinct values and log P(value | crop) [crops, values]: a value printed in two
        ways (10 and A) is either spelling."""
        spellings = {symbol: self.spell(symbol) for symbol in symbols}
        longest = max(len(labels) for labels in spellings.values())
        slot_width = SINGLE_SLOT if longest == 1 else DOUBLE_SLOT
        # Only the blank and the symbols' characters take part: keep just those columns.
        classes = sorted({BLANK, *(c for labels in spellings.values() for c in labels)})
        position = {cls: i for i, cls in enumerate(classes)}
        probs = self.frame_probabilities(crops, slot_width)[:, :, classes]
        symbol_scores = sequence_log_likelihoods(
            np.log(np.maximum(probs, LOG_FLOOR)),
            [tuple(position[c] for c in labels) for labels in spellings.values()],
            position[BLANK],
        )
        values = sorted(set(symbols.values()))
        column = {value: i for i, value in enumerate(values)}
        scores = np.full((len(crops), len(values)), -np.inf)
        for j, symbol in enumerate(spellings):
            k = column[symbols[symbol]]
            scores[:, k] = np.logaddexp(scores[:, k], symbol_scores[:, j])
        return values, scores

    def read_digits(
        self, crops: Sequence[np.ndarray], symbols: Mapping[str, int]
    ) -> list[DigitReading]:
        if not crops:
            return []
        if not symbols:
            raise ValueError("no symbols to read")
        values, scores = self.value_log_likelihoods(crops, symbols)
        tempered = scores / self.temperature
        tempered -= tempered.max(axis=1, keepdims=True)
        confidence = np.exp(tempered)
        confidence /= confidence.sum(axis=1, keepdims=True)
        readings = []
        for row in confidence:
            best = np.argsort(-row, kind="stable")[:READINGS]
            ranked = [(values[i], float(row[i])) for i in best]
            readings.append(DigitReading(ranked[0][0], ranked[0][1], tuple(ranked[1:])))
        return readings
