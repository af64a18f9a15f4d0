"""The ``sudoku-batch`` command: parses options, dispatches, maps errors to exit codes.

Each subcommand lives in ``sudoku_batch/commands/<name>.py`` and registers itself with
``register(subparsers)``; this module only assembles them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn

from sudoku_batch.settings.environment import set_library_defaults

# Before numpy is first imported, so every command (the worker's too) and the processes it
# starts get them: OpenBLAS then starts one thread, not one per core. Nothing here multiplies
# matrices big enough to gain from more, and a pool's processes run one page each.
set_library_defaults()

from sudoku_batch import startup  # noqa: E402

startup.freeze_at_exit()

with startup.collection_paused():
    from sudoku_batch.outcome import ExitCode, exit_code_of_error
    from sudoku_batch.pipeline.errors import SudokuBatchError

# In the order `--help` lists them; each is the module sudoku_batch/commands/<name>.py with
# dashes as underscores, imported only when its parser is needed.
COMMANDS = (
    "run",
    "solve-text",
    "submit",
    "watch",
    "report",
    "answer-key",
    "worker",
    "api",
    "flower",
    "migrate",
    "recover",
    "keys",
    "export",
)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the one ``argv`` names first: it parses that
    command's arguments the same, and the other commands' modules are not imported."""
    parser = OneLineErrors(
        prog="sudoku-batch",
        description="Find, read, solve and verify Sudoku puzzles in photos, scans and PDF books.",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = argv[:1] if argv and argv[0] in COMMANDS else COMMANDS
    with startup.collection_paused():
        for name in named:
            module = importlib.import_module(f"sudoku_batch.commands.{name.replace('-', '_')}")
            module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    args = build_parser(argv).parse_args(argv)
    try:
        return args.func(args)
    except SudokuBatchError as error:
        print(f"sudoku-batch: {error.message}", file=sys.stderr)
        return exit_code_of_error(error)
    except KeyboardInterrupt:
        print("sudoku-batch: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED


class OneLineErrors(argparse.ArgumentParser):
    """A bad option ends the command with one line on stderr and exit 2, before any work
    (argparse's own ``error`` prints the whole usage first); its subcommands' parsers are of
    this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(ExitCode.BAD_ARGS, f"{self.prog}: {message} (see {self.prog} --help)\n")


class _VersionAction(argparse.Action):
    """``--version``, looked up only when asked: reading the package metadata would slow
    every command's start-up."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("sudoku-batch")
        except PackageNotFoundError:  # run from a source tree that was never installed
            found = "unknown"
        print(f"{parser.prog} {found}")  # on stdout, as argparse's own version action
        parser.exit()


if __name__ == "__main__":
    sys.exit(main())
