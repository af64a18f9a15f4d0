from __future__ import annotations

import pytest

from sudoku_batch.pipeline.solve.backends import BACKEND_NAMES, make_backend


@pytest.fixture(scope="session", params=BACKEND_NAMES)
def backend(request):
    return make_backend(request.param)


@pytest.fixture(scope="session")
def kissat():
    return make_backend("kissat")


@pytest.fixture(scope="session")
def cadical():
    return make_backend("cadical")
