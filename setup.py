"""The rating core compiled with mypyc at install time, when asked; optional.

With ``SUDOKU_BATCH_COMPILE=1`` the technique modules of ``pipeline/rating`` are compiled from
their .py sources as they are (mypyc reads their type annotations); ``pipeline.rating.
compiled_core`` then runs the extensions only while every source still matches the sha256
written here beside them. Without it, a C compiler, or modules that type-check, the install
goes on without extensions and the sources run (the same ratings, slower). Asked for, not by
default: the compile takes minutes on two cores, which a first install should not wait for.
Everything else is in pyproject.toml.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

from setuptools import find_packages, setup
from setuptools.command.build_ext import build_ext

# The repository's top-level folders, installed as subpackages of the one import name.
FOLDERS = (
    "api",
    "jobs",
    "migrations",
    "pipeline",
    "reports",
    "settings",
    "store",
    "synth",
    "workers",
)
PACKAGE_DIR = {"sudoku_batch": "sudoku_batch", **{f"sudoku_batch.{f}": f for f in FOLDERS}}
PACKAGES = [
    name if name.startswith("sudoku_batch") else f"sudoku_batch.{name}"
    for name in find_packages(
        include=["sudoku_batch", "sudoku_batch.*", *FOLDERS, *(f"{f}.*" for f in FOLDERS)]
    )
]

RATING = Path("pipeline/rating")
# mypy names a module by its folders, so it compiles a copy laid out as installed.
MYPYC_TREE = Path("build/mypyc-src")
MANIFEST = "compiled_sources.json"  # pipeline.rating.compiled_core.MANIFEST
COMPILE_ENV = "SUDOKU_BATCH_COMPILE"
# Kept interpreted: the package's import-time choice; the rater's step loop and the levels,
# which are not hot. (The rater's budget is spent inside the compiled loops, budget.py.)
INTERPRETED = {"__init__", "compiled_core", "rater", "levels"}
SOURCES = sorted(path for path in RATING.glob("*.py") if path.stem not in INTERPRETED)


def _warn(message: str) -> None:
    print(f"sudoku-batch: {message}; the rater runs as pure Python", file=sys.stderr)


# mypyc's shared library is GROUP + "__mypyc", beside the package: compiled_core.missing_library.
GROUP = "sudoku_batch.pipeline.rating_core"


def installed_copy() -> list[Path]:
    """The pipeline package copied to build/ as ``sudoku_batch.pipeline``; its rating sources."""
    shutil.rmtree(MYPYC_TREE, ignore_errors=True)
    root = MYPYC_TREE / "sudoku_batch"
    shutil.copytree(
        "pipeline", root / "pipeline", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    (root / "__init__.py").write_text("")
    return [root / source for source in SOURCES]


def compiled_extensions() -> list:
    if os.environ.get(COMPILE_ENV) != "1":
        return []
    print("sudoku-batch: compiling the rating core with mypyc (minutes)", file=sys.stderr)
    try:
        from mypyc.build import mypycify

        return mypycify(
            ["--follow-imports=silent", "--ignore-missing-imports", *map(str, installed_copy())],
            group_name=GROUP,
        )
    except (Exception, SystemExit) as error:  # mypy exits when the sources do not type-check
        _warn(f"the rating core was not compiled ({error!r})")
        return []


class OptionalBuildExt(build_ext):
    """Builds the extensions, or none of them: a failure removes what was built (the modules
    reach into each other, so all or none), and the install goes on."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, missing headers, a compile error
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            _warn(f"the rating core did not compile ({error})")
            return
        if self.extensions:
            self._write_manifest()

    def _write_manifest(self) -> None:
        """The sha256 of each compiled source, beside the extensions (in place for an
        editable install, in the wheel otherwise)."""
        target = Path(
            self.get_ext_fullpath(f"sudoku_batch.pipeline.rating.{SOURCES[0].stem}")
        ).parent
        hashes = {path.stem: hashlib.sha256(path.read_bytes()).hexdigest() for path in SOURCES}
        (target / MANIFEST).write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")


setup(
    packages=PACKAGES,
    package_dir=PACKAGE_DIR,
    ext_modules=compiled_extensions(),
    cmdclass={"build_ext": OptionalBuildExt},
)
