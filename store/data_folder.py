"""The data folder the API and every worker share when it is the store
(``store.local_storage.LocalFolder``): made and marked by the API at start, and checked by
``/health`` and ``sudoku-batch worker --ping``.

The marker tells a worker's folder from the API's: a worker on another host without the shared
volume, or started from another directory with a relative ``SUDOKU_BATCH_DATA_DIR``, finds a
folder without it (or none at all) and its health check says so, before any input is blamed.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from sudoku_batch.store.storage import DATA_FOLDER, storage_fault

logger = logging.getLogger(__name__)

MARKER = ".sudoku-batch-data"
# A probe of one page: on a full filesystem even that cannot be written.
PROBE_BYTES = 4096


def prepare(data_dir: Path) -> None:
    """Make the data folder and its marker if missing (the API's start); a folder that
    cannot be made is logged, and ``/health`` reports it."""
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        marker = data_dir / MARKER
        if not marker.exists():
            marker.write_text("sudoku-batch's data folder: the API and every worker share it\n")
    except OSError as error:
        logger.error("the data folder %s cannot be prepared: %s", data_dir, error)
    else:
        logger.info("data folder: %s", data_dir)


def problem(data_dir: Path) -> str | None:
    """What keeps ``data_dir`` from being used (missing, not the API's, not writable, full),
    or None; named by its setting, not its path (``/health`` shows it to anyone)."""
    if not data_dir.is_dir():
        return f"{DATA_FOLDER} is missing"
    if not (data_dir / MARKER).is_file():
        return (
            f"{DATA_FOLDER} is not the API's (it holds no {MARKER}): the API and every worker"
            " must share one data folder"
        )
    try:
        with tempfile.NamedTemporaryFile(dir=data_dir, prefix=".probe-") as probe:
            probe.write(os.urandom(PROBE_BYTES))
            probe.flush()
    except OSError as error:
        fault = storage_fault(error)
        return fault.message if fault else f"{DATA_FOLDER}: {error.strerror}"
    return None
