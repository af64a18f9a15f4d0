"""The kissat wrapper: answers, failures, and that no kissat outlives its time or its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import psutil
import pytest

from sudoku_batch.pipeline.errors import EngineUnavailable, SolverFailed
from sudoku_batch.pipeline.solve.backend import Cnf, SatStatus
from sudoku_batch.pipeline.solve.backends import make_backend
from sudoku_batch.pipeline.solve.kissat import (
    BINARY_SETTING,
    KissatBackend,
    find_kissat,
    parse_kissat_output,
)
from sudoku_batch.settings import Settings
from tests.conftest import REPO_ROOT


def pigeonhole(holes: int) -> Cnf:
    """holes + 1 pigeons in ``holes`` holes: unsatisfiable, and exponentially hard for CDCL."""
    pigeons = holes + 1

    def var(p: int, h: int) -> int:
        return p * holes + h + 1

    clauses = [tuple(var(p, h) for h in range(holes)) for p in range(pigeons)]
    clauses += [
        (-var(p, h), -var(q, h))
        for h in range(holes)
        for p in range(pigeons)
        for q in range(p + 1, pigeons)
    ]
    return Cnf(pigeons * holes, tuple(clauses))


def kissat_processes_under(pid: int) -> list[psutil.Process]:
    return [
        child
        for child in psutil.Process(pid).children(recursive=True)
        if child.name() == "kissat" and child.status() != psutil.STATUS_ZOMBIE
    ]


@pytest.fixture(params=["setpriv", "prctl"])
def launcher(request):
    """The backend both ways it can set the parent-death signal."""
    backend = KissatBackend()
    if request.param == "prctl":
        backend._setpriv = None
    elif backend._setpriv is None:
        pytest.skip("setpriv is not installed")
    return request.param, backend


def test_the_wheel_binary_is_found_and_runs(kissat):
    assert find_kissat().name == "kissat"
    assert kissat.version[0].isdigit()


def test_sat_and_unsat_answers(launcher):
    _, backend = launcher
    sat = backend.solve_cnf(Cnf(3, ((1, 2), (-1,), (-2, 3))), 10)
    assert sat.status is SatStatus.SAT and sat.true_vars == frozenset({2, 3})
    assert backend.solve_cnf(Cnf(1, ((1,), (-1,))), 10).status is SatStatus.UNSAT


def test_past_the_timeout_it_is_unknown_and_no_kissat_is_left(launcher):
    _, backend = launcher
    outcome = backend.solve_cnf(pigeonhole(11), timeout=0.3)
    assert outcome.status is SatStatus.UNKNOWN
    assert kissat_processes_under(os.getpid()) == []


@pytest.mark.parametrize("how", ["setpriv", "prctl"])
def test_kissat_dies_with_a_killed_parent(how):
    """A parent killed outright (as a Celery worker past its hard limit is) takes kissat along."""
    script = textwrap.dedent(
        f"""
        from sudoku_batch.pipeline.solve.kissat import KissatBackend
        from tests.solve.test_kissat import pigeonhole
        backend = KissatBackend()
        if {how!r} == "prctl":
            backend._setpriv = None
        elif backend._setpriv is None:
            raise SystemExit(3)
        backend.solve_cnf(pigeonhole(12), timeout=120)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=REPO_ROOT)
    try:
        deadline = time.monotonic() + 30
        while not (solvers := kissat_processes_under(parent.pid)):
            if parent.poll() == 3:
                pytest.skip("setpriv is not installed")
            if parent.poll() is not None:
                pytest.fail(f"the parent exited early with {parent.returncode}")
            assert time.monotonic() < deadline, "kissat never started"
            time.sleep(0.05)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        gone, alive = psutil.wait_procs(solvers, timeout=10)
        alive = [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]
        assert alive == [], "kissat outlived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()


def fake_kissat(tmp_path, body: str) -> KissatBackend:
    """A backend whose binary is a shell script: answers --version, then runs ``body``."""
    script = tmp_path / "kissat"
    script.write_text(f'#!/bin/sh\n[ "$1" = --version ] && {{ echo 4.0.4; exit 0; }}\n{body}\n')
    script.chmod(0o755)
    return KissatBackend(script)


@pytest.mark.parametrize(
    "body",
    [
        "cat >/dev/null; echo 's SATISFIABLE'; echo 'v 1 x 0'; exit 10",  # garbage model
        "cat >/dev/null; echo 's SATISFIABLE'; echo 'v 1 -2'; exit 10",  # model cut short
        "cat >/dev/null; echo 'something else'; exit 10",  # no status line
        "cat >/dev/null; echo 's UNSATISFIABLE'; exit 10",  # status and exit code disagree
        "cat >/dev/null; echo 'kissat: fatal error' >&2; exit 1",
        "cat >/dev/null; kill -SEGV $$",  # a crash
    ],
)
def test_a_broken_kissat_is_a_solver_failure(body, tmp_path):
    backend = fake_kissat(tmp_path, body)
    with pytest.raises(SolverFailed, match="kissat"):
        backend.solve_cnf(Cnf(2, ((1, 2),)), 10)


def test_a_missing_binary_is_engine_unavailable(tmp_path):
    settings = Settings.from_env({BINARY_SETTING: str(tmp_path / "nowhere" / "kissat")})
    with pytest.raises(EngineUnavailable, match=BINARY_SETTING):
        make_backend("kissat", settings.engine_files().kissat)


def test_unknown_is_read_from_kissats_own_time_limit():
    outcome = parse_kissat_output(0, b"s UNKNOWN\n", b"", 1.0)
    assert outcome.status is SatStatus.UNKNOWN
