"""A new embedded run's SQLite database, copied from an empty one the migrations made before.

Migrating a new SQLite file imports Alembic and runs every migration: most of a one-photo
``run``. The first new database is migrated as before and,
still empty, copied to the user's cache folder under a name that hashes the migration scripts
and the views' SQL they import (store/results_view.py); each later new database is a copy of
it. A changed script changes the name, so a stale copy is never used; a cache folder that
cannot be written only means migrating every time.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from sudoku_batch.settings.environment import cache_dir
from sudoku_batch.store.schema_current import VERSIONS_DIR

VIEWS_FILE = Path(__file__).resolve().parent / "results_view.py"


def template_path(versions_dir: Path = VERSIONS_DIR) -> Path:
    digest = hashlib.sha256()
    for script in [*sorted(versions_dir.glob("*.py")), VIEWS_FILE]:
        digest.update(script.name.encode())
        digest.update(script.read_bytes())
    return cache_dir() / f"empty-schema-{digest.hexdigest()[:16]}.sqlite"


def copy_template(database: Path) -> bool:
    """Make ``database`` (which must not exist) a copy of the empty migrated database, if one
    was saved; False if there is none."""
    template = template_path()
    if not template.is_file():
        return False
    try:
        shutil.copyfile(template, database)
    except OSError:
        database.unlink(missing_ok=True)
        return False
    return True


def save_template(database: Path) -> None:
    """Keep a copy of ``database``, just migrated and still empty, for the next new one."""
    template = template_path()
    try:
        template.parent.mkdir(parents=True, exist_ok=True)
        fd, partial = tempfile.mkstemp(dir=template.parent, prefix=".partial-")
        os.close(fd)
        shutil.copyfile(database, partial)
        os.replace(partial, template)
    except OSError:
        pass  # no cache: the next new database is migrated too
