"""ONNX Runtime sessions whose graph optimisation is done once and saved in a cache folder.

Making a session optimises the model's graph every time: with ``onnx`` imported to cut the
digit model's output layer, 0.2 CPU-s of a one-photo ``run`` (issue 13). The first session of
a model instead saves its optimised graph (``SessionOptions.optimized_model_filepath``) under
``cache_dir``, and later ones load that file. It is saved at the extended level, which is
portable; the layout passes tied to this CPU (NCHWc) still run at each load, so a cache folder
shared by machines stays valid. Outputs are bit-identical to a session of the original model.

The file's name hashes what it was made from (the caller's ``recipe``: model file, size,
mtime, the cut) and ONNX Runtime's version, so a changed input never reads a stale graph. A
folder that cannot be written only means optimising every time.
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import onnxruntime as ort

log = logging.getLogger(__name__)


def saved_graph_path(cache_dir: Path, recipe: str) -> Path:
    digest = hashlib.sha256(f"{recipe}\nonnxruntime {ort.__version__}".encode()).hexdigest()
    return cache_dir / f"ort-graph-{digest[:16]}.onnx"


def cached_session(
    cache_dir: Path | None,
    recipe: str,
    model: Callable[[], bytes | str],
    open_session: Callable[[bytes | str, ort.GraphOptimizationLevel | None, str | None], object],
):
    """A session of ``model()`` (bytes or a file path; called only when there is no saved
    graph yet), through ``open_session(model, level, save_to)``, which applies the caller's own
    options and error handling."""
    if cache_dir is None:
        return open_session(model(), None, None)
    saved = saved_graph_path(cache_dir, recipe)
    if not saved.is_file():
        _save(model(), saved, open_session)
    if saved.is_file():
        try:
            return open_session(str(saved), None, None)
        except Exception as error:  # noqa: BLE001 - e.g. a file damaged on disk: made again
            log.warning("ignoring the saved graph %s: %s", saved, error)
            saved.unlink(missing_ok=True)
    return open_session(model(), None, None)


def _save(model: bytes | str, saved: Path, open_session: Callable) -> None:
    try:
        saved.parent.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(dir=saved.parent, prefix=".partial-", suffix=".onnx")
        os.close(fd)
    except OSError as error:
        log.info("ONNX Runtime graphs are not cached: %s", error)
        return
    try:
        open_session(model, ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED, partial)
        os.replace(partial, saved)  # readers see the whole file or none
    finally:
        Path(partial).unlink(missing_ok=True)
