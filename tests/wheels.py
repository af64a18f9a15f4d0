"""Build this tree's wheel and install it in a fresh venv, for the slow install tests."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT

# What a developer's tree holds beside its sources: an in-tree build would reuse the compiled
# rating core of an earlier build (setuptools' build/ folder, the editable install's .so files).
NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv*", "build", "*.egg-info", "__pycache__", "*.so", "compiled_sources.json"
)


def build_wheel(folder: Path, env: dict[str, str] | None = None) -> Path:
    """The wheel built into ``folder`` from a copy of this tree's sources; ``env`` is added to
    the build's."""
    sources = folder / "sources"
    shutil.copytree(REPO_ROOT, sources, ignore=NOT_SOURCES)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(folder), str(sources)],
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert built.returncode == 0, built.stderr
    (wheel,) = folder.glob("sudoku_batch-*.whl")
    return wheel


def install_in_fresh_venv(wheel: Path, venv: Path) -> Path:
    """The Python of a new venv holding ``wheel``. The dependencies are this environment's (no
    download); a path line in a .pth file adds them without running their .pth files, so this
    tree's editable install stays out."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True)
    (site_packages,) = (venv / "lib").glob("python3*/site-packages")
    (site_packages / "deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return python
