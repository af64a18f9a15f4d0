"""API keys: made once and shown once, kept only as a SHA-256, revoked but never reused."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from sudoku_batch.pipeline.errors import SudokuBatchError
from sudoku_batch.store.models import ApiKey, utc_now

KEY_PREFIX = "sbk_"  # recognisable in a leaked config file or a secret scanner


class KeyProblem(SudokuBatchError):
    code = "api_key"


@dataclass(frozen=True)
class KeyInfo:
    name: str
    created_at: datetime
    revoked_at: datetime | None


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def create_key(session: Session, name: str) -> str:
    """A new key named ``name``; the key itself is returned here and nowhere else."""
    if session.scalar(select(ApiKey.id).where(ApiKey.name == name)) is not None:
        raise KeyProblem(f"there is already a key named {name!r}")
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    session.add(ApiKey(name=name, key_hash=digest(key)))
    session.flush()
    return key


def list_keys(session: Session) -> list[KeyInfo]:
    return [
        KeyInfo(row.name, row.created_at, row.revoked_at)
        for row in session.scalars(select(ApiKey).order_by(ApiKey.created_at))
    ]


def revoke_key(session: Session, name: str) -> None:
    row = session.scalar(select(ApiKey).where(ApiKey.name == name))
    if row is None:
        raise KeyProblem(f"there is no key named {name!r}")
    row.revoked_at = row.revoked_at or utc_now()


def key_owner(session: Session, key: str) -> int | None:
    """The id of the live key ``key``, or None if it is unknown or revoked."""
    return session.scalar(
        select(ApiKey.id).where(ApiKey.key_hash == digest(key), ApiKey.revoked_at.is_(None))
    )
