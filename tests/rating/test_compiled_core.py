"""The compiled rating core (setup.py, pipeline.rating.compiled_core): it runs only while its
sources are unchanged since the build, and the sources run in its place otherwise; and the core
compiled in place (as the Dockerfile and .ci/run build it) rates as the sources do."""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import sys
import warnings
from pathlib import Path

import pytest

from sudoku_batch.pipeline.rating.compiled_core import MANIFEST, select, source_hash
from tests.conftest import REPO_ROOT
from tests.rating.cores import printed_by, require_compiled

SAMPLE = REPO_ROOT / "bench" / "data" / "se_rated_sample.txt"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    """A package with a module whose "extension" cannot be imported (not a shared library), so
    an import that reaches it fails and one that takes the source succeeds."""
    name = f"built_{tmp_path.name.replace('-', '_')}"
    where = tmp_path / name
    where.mkdir()
    (where / "__init__.py").write_text("")
    (where / "mod.py").write_text("ORIGIN = 'source'\n")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (where / f"mod{suffix}").write_bytes(b"not a shared library")
    (where / MANIFEST).write_text(json.dumps({"mod": source_hash(where / "mod.py")}))
    (tmp_path / f"{name}_core__mypyc.py").write_text("")  # the group's shared library, found
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    return name, where


def _selected(name: str, where: Path, pure: bool = False) -> tuple[bool, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compiled = select(name, where, pure)
    return compiled, [str(w.message) for w in caught]


def test_a_build_matching_its_sources_runs(package):
    assert _selected(*package) == (True, [])


def test_an_edited_source_runs_instead_of_the_stale_build_with_a_warning(package):
    name, where = package
    (where / "mod.py").write_text("ORIGIN = 'edited source'\n")
    compiled, said = _selected(name, where)
    assert not compiled
    assert len(said) == 1 and "mod.py changed since it was compiled" in said[0]
    assert importlib.import_module(f"{name}.mod").ORIGIN == "edited source"


def test_a_build_without_its_manifest_is_not_trusted(package):
    name, where = package
    (where / MANIFEST).unlink()
    compiled, said = _selected(name, where)
    assert not compiled and "missing" in said[0]
    assert importlib.import_module(f"{name}.mod").ORIGIN == "source"


def test_a_build_whose_shared_library_is_not_importable_is_not_trusted(package):
    """As after an editable install made without compiling, run from another folder."""
    name, where = package
    (where.parent / f"{name}_core__mypyc.py").unlink()
    compiled, said = _selected(name, where)
    assert not compiled and f"shared library {name}_core__mypyc is not importable" in said[0]
    assert importlib.import_module(f"{name}.mod").ORIGIN == "source"


def test_the_sources_can_be_asked_for(package):
    name, where = package
    assert _selected(name, where, pure=True) == (False, [])
    assert importlib.import_module(f"{name}.mod").ORIGIN == "source"


def test_without_a_build_the_sources_run_untouched(package):
    name, where = package
    for built in where.glob("mod.*"):
        if built.suffix != ".py":
            built.unlink()
    before = list(sys.meta_path)
    assert _selected(name, where) == (False, [])
    assert sys.meta_path == before


def test_the_compiled_and_pure_cores_rate_alike():
    """Every 12th sample puzzle (all bands, chains included) rated by both cores of this
    install."""
    require_compiled()
    lines = [line.split()[0] for line in SAMPLE.read_text().splitlines() if line[:1].isdigit()]
    script = (
        "import json, sys, importlib.machinery\n"
        "import sudoku_batch.pipeline.rating as r, pipeline.rating.singles as s\n"
        "from sudoku_batch.pipeline.ingest.textpuzzle import parse_puzzle_line\n"
        "compiled = s.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))\n"
        "assert r.COMPILED == compiled, (r.COMPILED, s.__file__)\n"
        "out = [r.rate_puzzle(parse_puzzle_line(t).puzzle) for t in sys.argv[1:]]\n"
        "print(json.dumps([r.COMPILED, [[x.score, list(x.techniques), x.reason] for x in out]]))\n"
    )
    compiled, pure = (printed_by(script, *lines[::12], pure=sources) for sources in (False, True))
    assert compiled[0] is True, "the rating core was not compiled"
    assert pure[0] is False
    assert compiled[1] == pure[1]
