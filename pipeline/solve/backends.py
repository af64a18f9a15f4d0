"""SAT backends by name: the one place that knows which backends exist."""

from __future__ import annotations

from pipeline.errors import EngineUnavailable
from pipeline.solve.backend import SatBackend

DEFAULT_BACKEND = "kissat"
BACKEND_NAMES = ("kissat", "cadical")


def make_backend(name: str = DEFAULT_BACKEND) -> SatBackend:
    """A new backend; ``EngineUnavailable`` for an unknown name or a backend that cannot run."""
    # Imported here so that using one backend never requires the other to be installed.
    if name == "kissat":
        from pipeline.solve.kissat import KissatBackend

        return KissatBackend()
    if name == "cadical":
        try:
            from pipeline.solve.pysat_backend import CadicalBackend
        except ImportError as error:
            raise EngineUnavailable(f"the cadical backend needs python-sat: {error}") from error
        return CadicalBackend()
    raise EngineUnavailable(
        f"unknown SAT backend {name!r}; choose one of {', '.join(BACKEND_NAMES)}"
    )
