"""ONNX Runtime sessions whose graph optimisation is done once and saved in a cache folder.

Making a session optimises the model's graph every time, and cutting the digit model's output
layer imports ``onnx``: together most of an engine's start. The first session of
a model instead saves its optimised graph (``SessionOptions.optimized_model_filepath``) under
``cache_dir``, and later ones load that file. Where the CPU's instruction sets can be read
(Linux), the graph is saved fully optimised, layout passes for this CPU (NCHWc) included, and
loaded with optimisation off: its name then hashes the instruction sets, so a cache folder
shared by machines gives each CPU its own graph. Elsewhere it is saved at the extended level,
which is portable, and the layout passes run at each load. Outputs are bit-identical to a
session of the original model either way.

The graph's weights are saved in a file of their own beside it, which a session maps
instead of parsing and copying them; processes reading the same model share its pages. The
graph names its weights file, so each save writes a new one and the first graph published
under a name stays (``os.link``), with its weights.

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

CPU_INFO = Path("/proc/cpuinfo")
WEIGHTS_FILE = "session.optimized_model_external_initializers_file_name"
WEIGHTS_MIN_BYTES = "session.optimized_model_external_initializers_min_size_in_bytes"

Configure = Callable[[ort.SessionOptions], None]


def saved_graph_path(cache_dir: Path, recipe: str) -> Path:
    digest = hashlib.sha256(f"{recipe}\nonnxruntime {ort.__version__}".encode()).hexdigest()
    return cache_dir / f"ort-graph-{digest[:16]}.onnx"


def cpu_instruction_sets(cpu_info: Path = CPU_INFO) -> str | None:
    """The first processor's instruction sets as Linux lists them (x86 ``flags``, Arm
    ``Features``): what ONNX Runtime's kernels and layout passes are chosen by. None where
    they cannot be read."""
    try:
        with open(cpu_info, encoding="utf-8") as info:
            for line in info:
                name, _, value = line.partition(":")
                if name.strip() in ("flags", "Features"):
                    return value.strip()
    except OSError:
        pass
    return None


def cached_session(
    cache_dir: Path | None,
    recipe: str,
    model: Callable[[], bytes | str],
    open_session: Callable[[bytes | str, Configure | None], object],
):
    """A session of ``model()`` (bytes or a file path; called only when there is no saved
    graph yet), through ``open_session(model, configure)``, which applies the caller's own
    options, then ``configure(options)`` if given, and the caller's error handling."""
    if cache_dir is None:
        return open_session(model(), None)
    cpu = cpu_instruction_sets()
    if cpu is None:  # portable: the layout passes run at each load
        save_level, load_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED, None
    else:  # for this CPU only, and nothing left to optimise at each load
        save_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        load_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        recipe += f"\nfor a CPU with {cpu}"
    saved = saved_graph_path(cache_dir, recipe)
    if not saved.is_file():
        _save(model(), saved, save_level, open_session)
    if saved.is_file():
        try:
            return open_session(str(saved), _at_level(load_level))
        except Exception as error:  # noqa: BLE001 - e.g. a file damaged on disk: made again
            log.warning("ignoring the saved graph %s: %s", saved, error)
            saved.unlink(missing_ok=True)
            for weights in saved.parent.glob(f"{saved.stem}-*.weights"):
                weights.unlink(missing_ok=True)
    return open_session(model(), None)


def _at_level(level: ort.GraphOptimizationLevel | None) -> Configure | None:
    if level is None:
        return None

    def configure(options: ort.SessionOptions) -> None:
        options.graph_optimization_level = level

    return configure


def _save(
    model: bytes | str,
    saved: Path,
    level: ort.GraphOptimizationLevel,
    open_session: Callable[[bytes | str, Configure | None], object],
) -> None:
    try:
        saved.parent.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(dir=saved.parent, prefix=".partial-", suffix=".onnx")
        os.close(fd)
    except OSError as error:
        log.info("ONNX Runtime graphs are not cached: %s", error)
        return
    # Named after the graph and this save: the graph refers to it by this name.
    weights = saved.with_name(
        f"{saved.stem}-{Path(partial).stem.removeprefix('.partial-')}.weights"
    )

    def configure(options: ort.SessionOptions) -> None:
        options.graph_optimization_level = level
        options.optimized_model_filepath = partial
        options.add_session_config_entry(WEIGHTS_FILE, weights.name)
        options.add_session_config_entry(WEIGHTS_MIN_BYTES, "1024")
        # Not ONNX Runtime's warning that a fully optimised graph is tied to this CPU: its
        # name says which CPU.
        options.log_severity_level = 3

    published = False
    try:
        open_session(model, configure)
        os.link(partial, saved)  # readers see the whole graph or none; a graph already there stays
        published = True
    except FileExistsError:
        pass
    except OSError as error:
        log.info("ONNX Runtime graphs are not cached: %s", error)
    finally:
        Path(partial).unlink(missing_ok=True)
        if not published:
            weights.unlink(missing_ok=True)
