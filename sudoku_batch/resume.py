"""Which batch a ``run`` works on, and which of its pages are left to do.

A run into an output folder that already holds a batch of the same inputs goes on with the
newest such batch: each input file listed again is compared with its row by SHA-256 of its
content; an unchanged file keeps its finished pages, a changed or new one is listed afresh,
one no longer named is dropped. So an interrupted batch is finished, and a finished one with
nothing changed has nothing to do. Text files of puzzles (``run --text``) go the same
way, a file at a time: one unchanged (content and box shape) with every puzzle solved is kept,
any other is read again. Other inputs start a batch of their own beside the others
(each batch's records in ``results-N.jsonl``); ``--restart`` first deletes the earlier batches
of the same inputs, their images and results files, so the folder holds one answer per page.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session

from sudoku_batch.pipeline.ingest.sources import PageSource
from sudoku_batch.store import record
from sudoku_batch.store.artifacts import PageRef
from sudoku_batch.store.models import (
    Batch,
    InputFile,
    InputStatus,
    Page,
    PageStatus,
    Puzzle,
    PuzzleStatus,
)

UNFINISHED = (PageStatus.PENDING, PageStatus.INTERRUPTED)
UNSOLVED_TEXT = (PuzzleStatus.PENDING, PuzzleStatus.READ)
IMAGE_FOLDERS = ("pages", "boards", "regions", "renders", "cells")


@dataclass
class PreparedBatch:
    batch_id: int
    todo: list[tuple[PageSource, PageRef]] = field(default_factory=list)
    resumed: bool = False
    pages_kept: int = 0  # finished pages a resumed batch did not redo


def prepare_batch(
    session: Session, label: str, sources: Iterable[PageSource], out_dir: Path, restart: bool
) -> PreparedBatch:
    files = [_ListedFile(list(group)) for _, group in groupby(sources, key=lambda s: s.path)]
    batch = _batch_to_go_on_with(session, label, out_dir, restart)
    if batch is None:
        prepared = PreparedBatch(record.create_batch(session, label=label))
        for listed in files:
            _add_file(session, prepared, listed)
        return prepared
    prepared = PreparedBatch(batch.id, resumed=True)
    rows = _file_rows(session, batch.id)
    for listed in files:
        row = rows.pop(listed.path, None)
        if (
            row is not None
            and row.content_hash == listed.content_hash
            and _same_pages(session, row.id, listed)
        ):
            _keep_file(session, prepared, row.id, listed)
            continue
        if row is not None:  # changed since: its pages are done again from scratch
            _drop_file(session, row, out_dir)
        _add_file(session, prepared, listed)
    for stale in rows.values():  # no longer among the inputs
        _drop_file(session, stale, out_dir)
    return prepared


@dataclass
class PreparedTextBatch:
    """The batch a run of text files of puzzles works on, and the files it reads again."""

    batch_id: int
    todo: list[tuple[str, str | None]] = field(default_factory=list)  # (file, its SHA-256)
    resumed: bool = False
    lines_kept: int = 0  # lines of the files a resumed batch did not read again


def prepare_text_batch(
    session: Session,
    label: str,
    names: Iterable[str],
    box: tuple[int, int] | None,
    out_dir: Path,
    restart: bool,
) -> PreparedTextBatch:
    """As ``prepare_batch`` for text files of puzzles: in the newest batch of the same inputs,
    a file with the same content and box shape whose puzzles are all done is kept; any other
    is read and solved again."""
    listed = [(name, _sha256(Path(name))) for name in dict.fromkeys(names)]
    batch = _batch_to_go_on_with(session, label, out_dir, restart)
    if batch is None:
        return PreparedTextBatch(record.create_batch(session, label=label), listed)
    prepared = PreparedTextBatch(batch.id, resumed=True)
    rows = _file_rows(session, batch.id)
    for name, content_hash in listed:
        row = rows.pop(name, None)
        if (
            row is not None
            and row.content_hash == content_hash
            and (row.box_rows, row.box_cols) == (box or (None, None))
            and _text_file_done(session, row)
        ):
            prepared.lines_kept += session.scalar(
                select(func.count(Page.id)).where(Page.input_file_id == row.id)
            )
            continue
        if row is not None:  # changed or unfinished: read and solved again from scratch
            _drop_file(session, row, out_dir)
        prepared.todo.append((name, content_hash))
    for stale in rows.values():  # no longer among the inputs
        _drop_file(session, stale, out_dir)
    return prepared


def _text_file_done(session: Session, row: InputFile) -> bool:
    """Whether a text file was read and each of its puzzles has its verdict."""
    if row.status == InputStatus.PENDING:
        return False
    pages = select(Page.id).where(Page.input_file_id == row.id)
    unfinished_page = pages.where(Page.status.in_(UNFINISHED))
    unsolved = select(Puzzle.id).where(Puzzle.page_id.in_(pages), Puzzle.status.in_(UNSOLVED_TEXT))
    return not session.scalar(select(exists(unfinished_page))) and not session.scalar(
        select(exists(unsolved))
    )


def _batch_to_go_on_with(session: Session, label: str, out_dir: Path, restart: bool):
    """The newest batch of the inputs ``label``; none with ``restart``, which first deletes
    every batch of them."""
    if not restart:
        return _newest_batch(session, label)
    for old in session.scalars(select(Batch).where(Batch.label == label)):
        _forget_batch(session, old.id, out_dir)
    return None


class _ListedFile:
    """The pages listed for one input file, and the file's content hash."""

    def __init__(self, sources: list[PageSource]):
        self.sources = sources
        self.path = sources[0].path
        self.name = _file_label(sources[0])
        refused_file = len(sources) == 1 and sources[0].refused and sources[0].member is None
        self.content_hash = None if refused_file else _sha256(Path(self.path))


def _sha256(path: Path) -> str | None:
    try:
        with path.open("rb") as stream:
            return hashlib.file_digest(stream, "sha256").hexdigest()
    except OSError:
        return None


def _file_label(source: PageSource) -> str:
    """The user's name for the file holding a page: ``scans.zip`` for ``scans.zip/p1.png``."""
    if source.member:
        return source.source[: -len(source.member) - 1]
    return source.source


def _newest_batch(session: Session, label: str) -> Batch | None:
    return session.scalar(
        select(Batch).where(Batch.label == label).order_by(Batch.id.desc()).limit(1)
    )


def batch_results_path(out_dir: Path, batch_id: int) -> Path:
    """Where an output folder keeps one batch's records (``results.jsonl``: its newest's)."""
    return out_dir / f"results-{batch_id}.jsonl"


def _add_file(session: Session, prepared: PreparedBatch, listed: _ListedFile) -> None:
    file_id = record.add_input_file(
        session,
        prepared.batch_id,
        name=listed.name,
        stored_path=listed.path,
        content_hash=listed.content_hash,
    )
    page_ids = record.add_pages(session, file_id, listed.sources, seconds=0.0)
    prepared.todo += [
        (source, PageRef(prepared.batch_id, page_id, source.source, source.page))
        for page_id, source in zip(page_ids, listed.sources, strict=True)
        if not source.refused
    ]


def _same_pages(session: Session, file_id: int, listed: _ListedFile) -> bool:
    rows = session.execute(
        select(Page.source, Page.page_number).where(Page.input_file_id == file_id)
    ).all()
    return sorted(map(tuple, rows)) == sorted((s.source, s.page) for s in listed.sources)


def _keep_file(session: Session, prepared: PreparedBatch, file_id: int, listed: _ListedFile):
    by_key = {(source.source, source.page): source for source in listed.sources}
    for page in session.scalars(
        select(Page).where(Page.input_file_id == file_id).order_by(Page.id)
    ):
        if page.status in UNFINISHED:
            source = by_key[(page.source, page.page_number)]
            prepared.todo.append(
                (source, PageRef(page.batch_id, page.id, page.source, page.page_number))
            )
        else:
            prepared.pages_kept += 1


def _file_rows(session: Session, batch_id: int) -> dict[str, InputFile]:
    """A batch's input files by the path each was listed as."""
    rows = session.scalars(select(InputFile).where(InputFile.batch_id == batch_id))
    return {row.stored_path: row for row in rows}


def _drop_file(session: Session, row: InputFile, out_dir: Path) -> None:
    """Delete an input file's row, its pages' rows and the images written for them."""
    _forget_pages(session, row.id, out_dir)
    session.delete(row)
    session.flush()


def _forget_batch(session: Session, batch_id: int, out_dir: Path) -> None:
    for file_id in session.scalars(select(InputFile.id).where(InputFile.batch_id == batch_id)):
        _forget_pages(session, file_id, out_dir)
    session.delete(session.get_one(Batch, batch_id))
    session.flush()
    batch_results_path(out_dir, batch_id).unlink(missing_ok=True)


def _forget_pages(session: Session, file_id: int, out_dir: Path) -> None:
    """Delete the images written for a file's pages (their rows go with the file's row)."""
    for page_id in session.scalars(select(Page.id).where(Page.input_file_id == file_id)):
        for folder in IMAGE_FOLDERS:
            for made in (out_dir / folder).glob(f"{page_id:05d}-*"):
                if made.is_dir():
                    shutil.rmtree(made, ignore_errors=True)
                else:
                    made.unlink(missing_ok=True)
