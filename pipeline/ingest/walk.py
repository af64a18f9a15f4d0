"""The input files of what a user named: one function for ``run``, ``submit`` and the ingest
task, so all three agree on which files are inputs and which are refused.

A path named on the command line is always an input (a ``.txt`` named outright is refused as
unsupported, with a record); inside a folder only files with a suffix we read count, so notes
and ``truth.json`` beside the scans are left alone, as are hidden files. Nothing here opens a
file for reading: FIFOs and devices are refused from ``stat`` alone (opening a FIFO blocks),
links to folders are not followed (they may loop), and a dangling link or a link loop is
refused with a record.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sudoku_batch.pipeline.errors import UnreadableInput, UnsupportedInput

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".tif", ".tiff", ".webp", ".bmp"})
PDF_SUFFIXES = frozenset({".pdf"})
ARCHIVE_SUFFIXES = frozenset({".zip"})
READABLE_SUFFIXES = IMAGE_SUFFIXES | PDF_SUFFIXES | ARCHIVE_SUFFIXES


@dataclass(frozen=True)
class InputPath:
    """One input file, or why a path named cannot be one (``error_code`` and ``problem``)."""

    path: Path
    label: str  # how the user named it: the path as given, or folder/relative/path
    error_code: str | None = None
    problem: str | None = None


def input_paths(paths: Iterable[str | Path]) -> Iterator[InputPath]:
    """Every input file of ``paths``, in order; folders sorted by name, depth first."""
    for path in paths:
        yield from input_paths_of(Path(path), str(path))


def input_paths_of(path: Path, label: str) -> Iterator[InputPath]:
    try:
        info = path.stat()  # follows links: a link to a file is that file
    except OSError as error:
        yield _refused(path, label, UnreadableInput, _stat_problem(path, error))
        return
    if stat.S_ISDIR(info.st_mode):
        yield from _folder(path, label)
    elif not stat.S_ISREG(info.st_mode):
        kind = _KINDS.get(stat.S_IFMT(info.st_mode), "special file")
        problem = f"is a {kind}, not a regular file; sudoku-batch reads files only"
        yield _refused(path, label, UnsupportedInput, problem)
    elif info.st_size == 0:
        yield _refused(path, label, UnreadableInput, "is empty (0 bytes)")
    else:
        yield InputPath(path, label)


def suffix(name: str) -> str:
    return Path(name).suffix.lower()


def is_hidden(relative: Path) -> bool:
    return any(part.startswith(".") or part == "__MACOSX" for part in relative.parts)


_KINDS = {
    stat.S_IFIFO: "FIFO (named pipe)",
    stat.S_IFCHR: "character device",
    stat.S_IFBLK: "block device",
    stat.S_IFSOCK: "socket",
}


def _folder(path: Path, label: str) -> Iterator[InputPath]:
    found = False
    for child, relative in _walk(path, Path()):
        child_label = f"{label.rstrip('/')}/{relative.as_posix()}"
        if child.is_symlink() and child.is_dir():
            problem = "is a link to a folder, which is not followed (links may loop)"
            yield _refused(child, child_label, UnsupportedInput, problem)
        else:
            yield from input_paths_of(child, child_label)
        found = True
    if not found:
        readable = ", ".join(sorted(READABLE_SUFFIXES))
        yield _refused(path, label, UnsupportedInput, f"holds no file to read ({readable})")


def _walk(folder: Path, relative: Path) -> Iterator[tuple[Path, Path]]:
    """(path, path relative to the folder named) of every candidate input under ``folder``."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:
        return  # an unreadable subfolder: nothing in it can be listed
    for entry in entries:
        child_relative = relative / entry.name
        if is_hidden(child_relative):
            continue
        if entry.is_dir(follow_symlinks=False):
            yield from _walk(Path(entry.path), child_relative)
        elif suffix(entry.name) in READABLE_SUFFIXES or (
            entry.is_symlink() and entry.is_dir(follow_symlinks=True)
        ):
            yield Path(entry.path), child_relative


def _stat_problem(path: Path, error: OSError) -> str:
    if error.errno == errno.ELOOP:
        return "is a symbolic link loop"
    if error.errno == errno.ENOENT and path.is_symlink():
        return f"is a symbolic link to {os.readlink(path)}, which does not exist"
    return read_problem(error)


def read_problem(error: OSError) -> str:
    """An ``OSError`` reading an input, in words for its row: never the error's own text,
    which names the path on this host."""
    if error.errno == errno.ENOENT:
        return "no such file or folder"
    return f"cannot be read ({error.strerror or 'a read error'})"


def _refused(path: Path, label: str, error: type, problem: str) -> InputPath:
    return InputPath(path, label, error.code, f"{label}: {problem}")
