"""``bench.one_photo --against DIR`` runs DIR's own code: with DIR's own interpreter, refused
when that interpreter imports the package from anywhere else (PYTHONPATH cannot point the
installed layout at another checkout)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench.one_photo import HERE, WrongInterpreter, checkout_python


def test_this_checkout_runs_with_this_interpreter() -> None:
    assert checkout_python(HERE) == Path(sys.executable)


def test_a_checkout_without_its_own_venv_is_refused_with_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(WrongInterpreter, match="python3 -m venv .venv"):
        checkout_python(tmp_path)


def test_a_venv_that_runs_another_checkouts_code_is_refused(tmp_path: Path) -> None:
    # A venv whose interpreter imports this checkout's package, as a PYTHONPATH run did.
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    python.chmod(0o755)
    with pytest.raises(WrongInterpreter, match=f"from {HERE}/pipeline/.*, not from {tmp_path}"):
        checkout_python(tmp_path)
