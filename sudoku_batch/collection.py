"""Cyclic garbage collection paused while a process starts (issue 13).

Imports and the ORM's set-up make objects by the thousand and almost no garbage, and each
young collection walks the objects made since the last: collections during a one-photo
``run``'s imports and store start-up are work thrown away. After the pause, what it made goes
straight to the oldest generation, which only a full collection walks (so a cycle made there
is still collected, later); collecting it as young would cost what the pause saved. Short
stretches only: a batch's pages run with collection on.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collection_paused() -> Iterator[None]:
    """No automatic collection inside; the objects made inside are old after."""
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
