"""Whether an embedded run's SQLite database already has the newest schema, answered without
Alembic or SQLAlchemy.

Running the migrations on a current database still imports Alembic and has it read every
migration script, a large part of a one-photo ``run``. The newest
revision is read from the scripts' ``revision``/``down_revision`` lines instead, and the
database's from its ``alembic_version`` table; anything unexpected (no table, two heads, a
script this cannot parse) answers False, and the migrations run as before.
"""

from __future__ import annotations

import importlib.util
import re
import sqlite3
from pathlib import Path

# The repository's top-level migrations/ folder, installed as sudoku_batch.migrations.
MIGRATIONS_DIR = Path(importlib.util.find_spec("sudoku_batch.migrations").origin).parent
VERSIONS_DIR = MIGRATIONS_DIR / "versions"
_REVISION = re.compile(r"^revision(?:\s*:\s*str)?\s*=\s*[\"']([^\"']+)[\"']", re.MULTILINE)
_DOWN = re.compile(
    r"^down_revision(?:\s*:[^=]+)?\s*=\s*(?:None|[\"']([^\"']+)[\"'])\s*$", re.MULTILINE
)


def head_revision(versions_dir: Path = VERSIONS_DIR) -> str | None:
    """The one revision no other script revises, or None if the scripts say otherwise."""
    revisions, revised = set(), set()
    for script in versions_dir.glob("*.py"):
        text = script.read_text(encoding="utf-8")
        revision, down = _REVISION.search(text), _DOWN.search(text)
        if revision is None or down is None:
            return None
        revisions.add(revision.group(1))
        if down.group(1):
            revised.add(down.group(1))
    heads = revisions - revised
    return heads.pop() if len(heads) == 1 else None


def sqlite_is_current(database: Path) -> bool:
    if not database.is_file():
        return False
    head = head_revision()
    if head is None:
        return False
    try:
        with sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True) as db:
            rows = db.execute("select version_num from alembic_version").fetchall()
    except sqlite3.Error:
        return False
    return rows == [(head,)]
