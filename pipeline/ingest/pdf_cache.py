"""Open PDF documents kept per process, so a worker reading page after page of one book opens
it once.

Opening a PDF makes pdfium read its cross-reference table and page tree, which grows with the
book, so opening it again for every page costs more than the page's own work in a big book. A
worker takes pages of one book in a row, so a handful of open documents is enough. The key
holds the file's mtime and size, so a file replaced between two pages is opened afresh. A zip
member's spooled copy lives as long as its document.

pdfium is not thread-safe: this cache is for the page loaders of worker processes, which read
one page at a time (the embedded pool and Celery's prefork workers).

An open document grows with the pages rendered from it (pdfium keeps what it parsed for each),
so a worker's memory would grow through a long book. A document is closed
after PAGES_PER_OPEN pages and opened again on the next: one more open in that many pages.
"""

from __future__ import annotations

import atexit
import os
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

MAX_OPEN = 4
PAGES_PER_OPEN = 50

Key = tuple[str, str | None, int, int]
_open: OrderedDict[Key, AbstractContextManager[Any]] = OrderedDict()
_documents: dict[Key, Any] = {}
_pages_served: dict[Key, int] = {}
_at_exit: list[bool] = []


def cached_document(
    path: Path | str, member: str | None, opener: Callable[[], AbstractContextManager[Any]]
) -> Any:
    """The open document of ``path`` (``member`` inside it, if an archive), opened through
    ``opener`` (a context manager giving the document) when not open already."""
    stat = os.stat(path)
    key = (os.fspath(path), member, stat.st_mtime_ns, stat.st_size)
    if key in _open and _pages_served[key] >= PAGES_PER_OPEN:
        _close(key)
    if key in _open:
        _open.move_to_end(key)
        _pages_served[key] += 1
        return _documents[key]
    for stale in [k for k in _open if k[:2] == key[:2]]:
        _close(stale)  # the same file, changed since
    manager = opener()
    document = manager.__enter__()
    if not _at_exit:
        # Registered after pypdfium2's own exit handler, so it runs first (handlers run last
        # in, first out) and pypdfium2 finds no document left open to warn about.
        atexit.register(close_all)
        _at_exit.append(True)
    _open[key], _documents[key], _pages_served[key] = manager, document, 1
    while len(_open) > MAX_OPEN:
        _close(next(iter(_open)))
    return document


def close_all() -> None:
    for key in list(_open):
        _close(key)


def open_count() -> int:
    return len(_open)


def _close(key: Key) -> None:
    manager = _open.pop(key)
    _documents.pop(key, None)
    _pages_served.pop(key, None)
    manager.__exit__(None, None, None)
