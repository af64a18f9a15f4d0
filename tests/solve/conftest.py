from __future__ import annotations

import pytest

from pipeline.solve.backends import BACKEND_NAMES, make_backend


@pytest.fixture(scope="session", params=BACKEND_NAMES)
def backend(request):
    return make_backend(request.param)


@pytest.fixture(scope="session")
def kissat():
    return make_backend("kissat")


@pytest.fixture(scope="session")
def cadical():
    return make_backend("cadical")
