"""Digit reading with PaddleOCR's PP-OCRv6 small text recogniser, run by ONNX Runtime.

The model file ships inside the ``rapidocr`` wheel; we use only the file, never rapidocr's
pipeline or any downloader (workers have no network). Its output is [lines, frames, classes] of
per-frame probabilities; class 0 is the CTC blank, class i (1..) is line i-1 of the character
list in the model's metadata, and one trailing class, after the list, is the space.

At load the output layer is cut to the classes decoding can use
(pipeline.recognise.ocr.output_classes): the blank and the characters of every symbol a board
up to MAX_SIZE x MAX_SIZE prints.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import onnxruntime as ort

from sudoku_batch.pipeline.errors import EngineUnavailable
from sudoku_batch.pipeline.recognise.ocr.base import digit_symbols
from sudoku_batch.pipeline.recognise.ocr.ctc_lines import BLANK, CtcLineEngine
from sudoku_batch.pipeline.recognise.ocr.saved_graphs import Configure, cached_session

if TYPE_CHECKING:  # onnx is imported only to cut a model no saved graph holds yet
    import onnx

log = logging.getLogger(__name__)

MODEL_FILE = "PP-OCRv6_rec_small.onnx"
MODEL_SETTING = "SUDOKU_BATCH_PPOCR_REC_MODEL"  # named in errors; read by settings

# Temperature applied to the per-value log-likelihoods before normalising them into
# confidences: 1.0 leaves the model's own, which are well calibrated on real photos read with
# true and with moved corners (the likelihood optimum is flat around it), whether or not the
# output layer is cut to the decodable classes; bench/ocr_calibration.py checks it.
TEMPERATURE = 1.0
# The largest board the engine reads: its symbols (1..9, 10..25 and A..P) decide which output
# classes are kept.
MAX_SIZE = 25
# Metadata of a cut model: the original classes its outputs are, in order.
KEPT_CLASSES_KEY = "sudoku_batch.kept_classes"


def find_model(path: str | os.PathLike[str] | None = None) -> Path:
    """The recogniser's ONNX file: ``path`` if given (the setting
    ``SUDOKU_BATCH_PPOCR_REC_MODEL``), else the copy inside the installed rapidocr package
    (located without importing it)."""
    if path is not None:
        model = Path(path)
        if not model.is_file():
            raise EngineUnavailable(f"PP-OCR recogniser model not found at {model}")
        return model
    spec = importlib.util.find_spec("rapidocr")
    if spec is None or not spec.submodule_search_locations:
        raise EngineUnavailable(
            f"PP-OCR recogniser model not found: install the rapidocr wheel or set {MODEL_SETTING}"
        )
    for folder in spec.submodule_search_locations:
        model = Path(folder) / "models" / MODEL_FILE
        if model.is_file():
            return model
    raise EngineUnavailable(
        f"the installed rapidocr has no models/{MODEL_FILE}; set {MODEL_SETTING} to the model file"
    )


def load_model(model: Path) -> onnx.ModelProto:
    import onnx

    try:
        return onnx.load(str(model))
    except Exception as exc:  # protobuf's DecodeError and OSError, among others
        raise EngineUnavailable(f"cannot load PP-OCR recogniser {model}: {exc}") from exc


def model_characters(metadata: Mapping[str, str], path: Path) -> list[str]:
    """The class table: the blank, the characters listed in the metadata, then the space."""
    if "character" not in metadata:
        raise EngineUnavailable(f"{path} has no character list in its metadata")
    return ["<blank>", *metadata["character"].split("\n"), " "]


def decodable_classes(characters: list[str]) -> list[int]:
    """The blank and the class of each character of every symbol up to MAX_SIZE that the model
    knows, in class order (a symbol it lacks fails when asked for, as with the full output). A
    character listed twice keeps the class CtcLineEngine spells it with, the last."""
    class_of = {char: index for index, char in enumerate(characters) if index != BLANK}
    wanted = {char for symbol in digit_symbols(MAX_SIZE) for char in symbol}
    return sorted({BLANK, *(class_of[char] for char in wanted if char in class_of)})


def open_session(
    model: bytes | str, path: Path, threads: int, configure: Configure | None = None
) -> ort.InferenceSession:
    """A session of ``model`` (its bytes or a file), its options then set by ``configure``
    (a saved graph's: ``saved_graphs``); ``path`` names the recogniser in errors."""
    options = ort.SessionOptions()
    # One thread per process: the runner parallelises over processes, which scale better than
    # intra-op threads.
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    if configure is not None:
        configure(options)
    try:
        return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # ONNX Runtime raises its own untyped exceptions
        raise EngineUnavailable(f"cannot load PP-OCR recogniser {path}: {exc}") from exc


def recogniser_session(
    path: Path, threads: int, *, cut: bool, cache_dir: Path | None = None
) -> tuple[ort.InferenceSession, list[str]]:
    """A session of the recogniser at ``path`` and the character of each of its output
    classes: all of them, or (``cut``) the decodable ones only. With ``cache_dir``, the
    optimised (and cut) graph is kept there for the next process (``saved_graphs``)."""
    stat = path.stat()
    recipe = f"{path.resolve()} {stat.st_size} {stat.st_mtime_ns}"
    if cut:
        recipe += f" cut by {_cut_code_digest()}"
    session = cached_session(
        cache_dir,
        recipe,
        (lambda: _cut_model(path)) if cut else (lambda: str(path)),
        lambda model, configure: open_session(model, path, threads, configure),
    )
    metadata = session.get_modelmeta().custom_metadata_map
    characters = model_characters(metadata, path)
    if KEPT_CLASSES_KEY in metadata:
        characters = [characters[int(index)] for index in metadata[KEPT_CLASSES_KEY].split(",")]
    return session, characters


def _cut_model(path: Path) -> bytes:
    """The model with its output cut to the decodable classes (listed in its metadata), or as
    shipped where its graph cannot be cut."""
    from sudoku_batch.pipeline.recognise.ocr.output_classes import (
        UnexpectedGraph,
        keep_output_classes,
    )

    model = load_model(path)
    keep = decodable_classes(
        model_characters({prop.key: prop.value for prop in model.metadata_props}, path)
    )
    try:
        model = keep_output_classes(model, keep)
    except UnexpectedGraph as exc:
        # Still a working recogniser (e.g. another model named by MODEL_SETTING), only
        # slower, and its readings differ from the cut model's only by the
        # renormalisation: worth running rather than failing every board.
        log.warning("reading %s with its full output layer: %s", path, exc)
    else:
        kept = model.metadata_props.add()
        kept.key, kept.value = KEPT_CLASSES_KEY, ",".join(map(str, keep))
    return model.SerializeToString()


def _cut_code_digest() -> str:
    """The code that decides a cut model's graph: a change makes a new saved graph."""
    digest = hashlib.sha256()
    for name in ("ppocr_onnx.py", "output_classes.py", "base.py"):
        digest.update((Path(__file__).parent / name).read_bytes())
    return digest.hexdigest()[:16]


class PpOcrOnnxEngine(CtcLineEngine):
    """PP-OCRv6 small, read through ONNX Runtime in this process.

    ``full_output`` keeps all 18,710 output classes (the model as shipped; benches and tests
    compare against it). ``cache_dir`` keeps the optimised graph for later processes."""

    name = "ppocr-onnx"

    def __init__(
        self,
        model_path: str | os.PathLike[str] | None = None,
        *,
        threads: int = 1,
        temperature: float = TEMPERATURE,
        full_output: bool = False,
        cache_dir: Path | None = None,
    ):
        self.model_path = find_model(model_path)
        self._session, characters = recogniser_session(
            self.model_path, threads, cut=not full_output, cache_dir=cache_dir
        )
        self._input = self._session.get_inputs()[0].name
        super().__init__(characters, temperature)

    def run_lines(self, lines: np.ndarray) -> np.ndarray:
        return self._session.run(None, {self._input: lines})[0]
