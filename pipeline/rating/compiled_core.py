"""Which rating core runs: the mypyc build of the hot modules (setup.py) or their .py sources.

An install with a C compiler compiles the technique modules into extensions beside their
sources, and writes ``MANIFEST`` beside them: the sha256 of every source it compiled. Python
imports an extension before its .py, so a source edited after the build would silently keep
running the old code; here, before any of those modules is imported, the sources are checked
against the manifest, and when one differs (or the manifest is missing) every compiled module
is imported from its .py instead, with a warning. ``pure`` asks for the sources outright (the
setting ``SUDOKU_BATCH_PURE_RATER=1``; the bench and a test compare both). The two cores run
the same code, so they rate alike.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
import warnings
from pathlib import Path

MANIFEST = "compiled_sources.json"


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_modules(package_dir: Path) -> set[str]:
    """The modules of ``package_dir`` that have a built extension (for this Python)."""
    found = set()
    for path in package_dir.iterdir():
        # Most specific first (".cpython-311-x86_64-linux-gnu.so" before ".so").
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if path.name.endswith(suffix):
                found.add(path.name[: -len(suffix)])
                break
    return found


def stale_reason(package_dir: Path, compiled: set[str]) -> str | None:
    """Why the extensions of ``compiled`` must not run (None when each matches its source)."""
    manifest = package_dir / MANIFEST
    if not manifest.is_file():
        return f"{manifest.name} is missing"
    built = json.loads(manifest.read_text())
    for name in sorted(compiled):
        source = package_dir / f"{name}.py"
        if name not in built:
            return f"{name} is not in {manifest.name}"
        if not source.is_file() or source_hash(source) != built[name]:
            return f"{source.name} changed since it was compiled"
    return None


def missing_library(package: str) -> str | None:
    """Why the extensions cannot load their shared library (None when it is importable).

    mypyc puts the group's code in one module beside the package (setup.py's ``GROUP``, the
    package's name plus ``_core``, then ``__mypyc``); an editable install made afterwards
    without compiling no longer maps it, and the extensions would fail at import."""
    library = f"{package}_core__mypyc"
    if importlib.util.find_spec(library) is None:
        return f"its shared library {library} is not importable"
    return None


class SourcesFirst(importlib.abc.MetaPathFinder):
    """Imports the named modules of one package from their .py, passing over the extension."""

    def __init__(self, package: str, package_dir: Path, names: set[str]) -> None:
        self.sources = {f"{package}.{name}": package_dir / f"{name}.py" for name in names}

    def find_spec(self, fullname, path=None, target=None):
        source = self.sources.get(fullname)
        if source is None or not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def select(package: str, package_dir: Path, pure: bool = False) -> bool:
    """Whether ``package`` runs its compiled modules; when not (or when ``pure`` asks for the
    sources), their sources are put first. Called by the package's ``__init__`` before it
    imports any of them."""
    compiled = compiled_modules(package_dir)
    if not compiled:
        return False
    if not pure:
        reason = stale_reason(package_dir, compiled) or missing_library(package)
        if reason is None:
            return True
        warnings.warn(
            f"{package}: not running the compiled core ({reason}); the .py sources run "
            "instead, slower. Rebuild with `SUDOKU_BATCH_COMPILE=1 pip install -e .` to "
            "compile them again.",
            RuntimeWarning,
            stacklevel=2,
        )
    # All or none: compiled modules reach into each other's classes directly.
    sys.meta_path.insert(0, SourcesFirst(package, package_dir, compiled))
    return False
