"""Options are checked as they are parsed, before any work: a bad value or an output path that
cannot be one ends the command with one line on stderr and exit 2, and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_batch.cli import main
from sudoku_batch.commands.option_types import MAX_DPI, MIN_DPI
from sudoku_batch.outcome import ExitCode
from tests.conftest import REPO_ROOT

PHOTO = str(REPO_ROOT / "examples" / "photo.jpg")

# (arguments after the command's own, what the one line names)
BAD = {
    "run": [
        (["--jobs", "0"], "--jobs: 0 is out of range"),
        (["--jobs", "-3"], "--jobs: -3 is out of range"),
        (["--jobs", "two"], "--jobs: 'two' is not a whole number"),
        (["--timeout", "-1"], "--timeout: -1 is out of range"),
        (["--timeout", "0"], "--timeout: 0 is out of range"),
        (["--timeout", "inf"], "--timeout: inf is out of range"),
        (["--dpi", "5"], f"--dpi: 5 is out of range: give from {MIN_DPI} to {MAX_DPI}"),
        (["--dpi", str(MAX_DPI + 1)], f"--dpi: {MAX_DPI + 1} is out of range"),
    ],
    "solve-text": [
        (["--jobs", "0"], "--jobs: 0 is out of range"),
        (["--timeout", "-1"], "--timeout: -1 is out of range"),
        (["--timeout", "nan"], "--timeout: nan is out of range"),
    ],
    "watch": [(["--settle", "-1"], "--settle: -1"), (["--poll", "0"], "--poll: 0")],
    "worker": [(["--concurrency", "0"], "--concurrency: 0 is out of range")],
    "api": [(["--port", "70000"], "--port: 70000 is out of range"), (["--workers", "0"], "0")],
    "flower": [(["--port", "0"], "--port: 0 is out of range")],
}
LEADING = {
    "run": [PHOTO, "--out", "{tmp}/out"],
    "solve-text": ["{tmp}/puzzles.txt"],
    "watch": ["{tmp}/inbox"],
}
CASES = [(command, extra, said) for command, cases in BAD.items() for extra, said in cases]


def _one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture) -> str:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == ExitCode.BAD_ARGS
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1, captured.err  # one line, no usage block
    return captured.err


@pytest.mark.parametrize(("command", "extra", "said"), CASES)
def test_a_value_out_of_range_is_one_line_and_exit_2(
    command: str, extra: list[str], said: str, tmp_path: Path, capsys
) -> None:
    leading = [part.format(tmp=tmp_path) for part in LEADING.get(command, [])]
    err = _one_line_exit_2([command, *leading, *extra], capsys)
    assert err.startswith(f"sudoku-batch {command}: argument ") and said in err
    assert list(tmp_path.iterdir()) == []  # nothing was made


@pytest.mark.parametrize(
    "argv",
    [
        ["run", PHOTO, "--out", "{file}"],
        ["run", PHOTO, "--out", "{file}/under"],
        ["run", "--text", "{file}", "--out", "{file}"],
        ["submit", PHOTO, "--wait", "--out", "{file}"],
        ["report", "{tmp}", "--out", "{tmp}"],
        ["report", "{tmp}", "--out", "{tmp}/r.html", "--pdf", "{file}/r.pdf"],
        ["answer-key", "{tmp}", "--out", "{tmp}"],
        ["export", "{tmp}", "--out", "{tmp}"],
    ],
)
def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(
    argv: list[str], tmp_path: Path, capsys
) -> None:
    existing = tmp_path / "existing.txt"
    existing.write_text("not a folder\n")
    argv = [part.format(tmp=tmp_path, file=existing) for part in argv]
    err = _one_line_exit_2(argv, capsys)
    assert "argument --out" in err or "argument --pdf" in err
    assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing.txt"]


def test_a_value_at_the_edge_of_its_range_is_taken(tmp_path: Path) -> None:
    from sudoku_batch.cli import build_parser

    argv = ["run", PHOTO, "--out", str(tmp_path / "out"), "--jobs", "1", "--dpi", str(MIN_DPI)]
    args = build_parser(argv).parse_args([*argv, "--timeout", "0.5"])
    assert (args.jobs, args.dpi, args.timeout) == (1, MIN_DPI, 0.5)
