"""settings/ reads every variable and hands it down: the engines' files, the cache folder,
the rater's core, the numeric libraries' defaults."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from sudoku_batch.commands import run, solve_text
from sudoku_batch.embedded import EmbeddedOptions
from sudoku_batch.engine_files import engine_files
from sudoku_batch.pipeline.engine_files import EngineFiles
from sudoku_batch.pipeline.solve.timeouts import COMMAND_SOLVE_TIMEOUT, SERVER_SOLVE_TIMEOUT
from sudoku_batch.settings import Settings, environment
from tests.conftest import REPO_ROOT


def test_the_cache_folder_is_the_setting_else_xdg_else_home(tmp_path):
    assert environment.cache_dir({environment.CACHE_DIR: str(tmp_path)}) == tmp_path
    assert environment.cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "sudoku-batch"
    assert environment.cache_dir({}) == Path.home() / ".cache" / "sudoku-batch"


def test_the_engines_files_come_from_the_settings(tmp_path, monkeypatch):
    for name in [name for name in os.environ if name.startswith(environment.PREFIX)]:
        monkeypatch.delenv(name)
    monkeypatch.setenv(environment.CACHE_DIR, str(tmp_path / "cache"))
    assert engine_files() == EngineFiles(cache_dir=tmp_path / "cache")
    monkeypatch.setenv("SUDOKU_BATCH_KISSAT", str(tmp_path / "kissat"))
    monkeypatch.setenv("SUDOKU_BATCH_PPOCR_REC_MODEL", str(tmp_path / "model.onnx"))
    expected = EngineFiles(tmp_path / "kissat", tmp_path / "model.onnx", None, tmp_path / "cache")
    assert engine_files() == expected
    assert run._from_settings()["engine_files"] == expected
    assert EmbeddedOptions(out_dir=tmp_path).job_settings().engine_files == expected


def test_one_default_per_solve_timeout():
    assert Settings.from_env({}).solve_timeout == SERVER_SOLVE_TIMEOUT
    assert EmbeddedOptions(out_dir=Path("out")).solve_timeout == COMMAND_SOLVE_TIMEOUT
    for command in (run, solve_text):
        subparsers = argparse.ArgumentParser().add_subparsers()
        command.register(subparsers)
        parser = next(iter(subparsers.choices.values()))
        assert parser.get_default("timeout") == COMMAND_SOLVE_TIMEOUT


# Records what the rating package is told when it chooses its core, then where a compiled
# module came from (its .py when the sources were asked for, whether or not a build exists).
CHOICE = """
import sudoku_batch.settings.environment as e
told, read = [], e.pure_rater
e.pure_rater = lambda: told.append(read()) or told[-1]
import sudoku_batch.pipeline.rating.singles as s
print(told, s.__file__.endswith(".py"))
"""


def test_the_pure_rater_setting_reaches_the_rater_at_import():
    for value, expected in (("1", "[True] True"), ("0", "[False]")):
        env = {**os.environ, environment.PURE_RATER: value}
        done = subprocess.run(
            [sys.executable, "-c", CHOICE], cwd=REPO_ROOT, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(expected)


def test_library_defaults_do_not_override_the_user(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    monkeypatch.delenv("PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK", raising=False)
    environment.set_library_defaults()
    assert os.environ["OMP_NUM_THREADS"] == "3"
    assert os.environ["PADDLE_PDX_DISABLE_MODEL_SOURCE_CHECK"] == "True"
