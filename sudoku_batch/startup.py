"""How a command starts fast: the start-up tricks, each with why, in one place.

``bench/startup_tricks.py`` runs a one-photo ``run`` with each trick turned off, side by side,
and prints what each saves. The tricks:

- ``freeze_at_exit``: a process that is ending leaves its objects to the OS; the collections
  at exit would walk every one, and the ORM's are many.
- ``collection_paused``: imports and the ORM's set-up make objects by the thousand and almost
  no garbage; young collections during them are work thrown away.
- ``fork_frozen``: a forked child's collector does not walk (nor copy, page by page) what it
  inherits.
- A lone page starts in a process forked before the store is imported
  (``sudoku_batch.page_ahead``): the page needs no database, so the store's start-up runs
  beside it on another core.
- A new embedded database is a copy of an empty one the migrations made before
  (``store.schema_template``), and a current one is recognised without Alembic
  (``store.schema_current``): Alembic's import and migrations are most of a small run.
- ``run`` builds the pydantic ``Settings`` only when a ``SUDOKU_BATCH_`` variable is set
  (``sudoku_batch.commands.run``): with none, every setting is its default.
- The OCR models' optimised graphs are kept in the cache folder
  (``pipeline.recognise.ocr.saved_graphs``): optimising a graph is most of an engine's start.

Imports inside functions are kept only where they keep a module out of a process that does not
need it: each command's module is imported when that command is named (``sudoku_batch.cli``),
and its heavy modules when it runs, not when its options are parsed (so ``--help`` and a bad
option answer at once); the store and SQLAlchemy after the lone page is forked
(``sudoku_batch.embedded_store``, imported once by ``sudoku_batch.embedded``); tqdm when a bar
is shown, pebble when a pool is needed, Alembic when a database must be migrated, pydantic when
a setting is given, package metadata for ``--version``, PostgreSQL's dialect on PostgreSQL
(``store.models``), and the OCR engines and solver backends that are chosen.
"""

from __future__ import annotations

import atexit
import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager


def freeze_at_exit() -> None:
    """At exit, move every object out of the collector's reach, so none is walked. A process
    that goes on after ``main`` (a test calling it) is not affected."""
    atexit.register(gc.freeze)


@contextmanager
def collection_paused() -> Iterator[None]:
    """No automatic collection inside; the objects made inside are old after.

    What the pause made goes straight to the oldest generation, which only a full collection
    walks (so a cycle made there is still collected, later); collecting it as young would cost
    what the pause saved. Short stretches only: a batch's pages run with collection on.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:  # else: thawing would also thaw what another froze
            gc.freeze()  # every tracked object, young ones included, out of the generations
            gc.unfreeze()  # and back, into the oldest
        if enabled:
            gc.enable()


def fork_frozen() -> int:
    """``os.fork()`` with every object frozen across it, so the child's collector never walks
    what it inherits; in the parent they are thawed into the oldest generation, as a process
    that goes on (a test) expects. Raises ``OSError`` as ``os.fork`` does."""
    gc.freeze()
    try:
        pid = os.fork()
    except OSError:
        gc.unfreeze()
        raise
    if pid:
        gc.unfreeze()
    return pid
