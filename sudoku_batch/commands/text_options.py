"""The options of a text batch (puzzles written as text, one per line), shared by ``run``,
``submit`` and ``solve-text``."""

from __future__ import annotations

import argparse

from sudoku_batch.errors import BadArguments
from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.pipeline.grid import GridShape
from sudoku_batch.pipeline.ingest.textpuzzle import parse_box


def box_argument(text: str) -> GridShape:
    """An argparse type for ``--box RxC``."""
    try:
        return parse_box(text)
    except SudokuBatchError as error:
        raise argparse.ArgumentTypeError(error.message) from error


def add_text_batch_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--text",
        action="store_true",
        help="the inputs are text files of puzzles, one per line (as solve-text reads them)",
    )
    parser.add_argument(
        "--box",
        type=box_argument,
        metavar="RxC",
        help="with --text, the box shape, e.g. 2x3 for 6x6 (default: the usual one per size)",
    )


def text_batch_box(args: argparse.Namespace) -> GridShape | None:
    """The box shape given for a text batch; raises ``BadArguments`` for one given
    without ``--text``."""
    if args.box and not args.text:
        raise BadArguments("--box goes with --text: it is the box shape of text puzzles")
    return args.box
