"""docs/errors.md is the one table of error codes and exit codes: it must list every error
class with its code, and every exit code, and nothing that does not exist."""

from __future__ import annotations

import re

import sudoku_batch.commands.flower  # noqa: F401 - defines FlowerAuthMissing
import sudoku_batch.commands.submit  # noqa: F401 - defines ApiError
import sudoku_batch.commands.worker  # noqa: F401 - defines UnknownQueue
import sudoku_batch.errors  # noqa: F401 - defines BadArguments
import sudoku_batch.settings.model  # noqa: F401 - defines InvalidSetting
import sudoku_batch.store.corrections  # noqa: F401 - defines BadCorrection, CorrectionRefused
import sudoku_batch.store.keys  # noqa: F401 - defines KeyProblem
import sudoku_batch.store.storage  # noqa: F401 - defines StorageUnavailable, StorageFull
import sudoku_batch.workers.stage  # noqa: F401 - defines StageTimedOut, WorkerLost
from sudoku_batch.outcome import ExitCode
from sudoku_batch.pipeline.errors import error_classes
from tests.conftest import REPO_ROOT

DOC = (REPO_ROOT / "docs" / "errors.md").read_text()


def test_every_error_code_is_documented_with_its_class() -> None:
    documented = set(re.findall(r"^\| `([a-z_0-9]+)` \| `(\w+)` \|", DOC, re.MULTILINE))
    assert documented == {(cls.code, cls.__name__) for cls in error_classes()}


def test_every_exit_code_is_documented() -> None:
    documented = set(re.findall(r"^\| (\d+) \| `(\w+)` \|", DOC, re.MULTILINE))
    assert documented == {(str(int(code)), code.name) for code in ExitCode}
