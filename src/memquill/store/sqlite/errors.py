"""sqlite3 errors classified for ``store.errors`` (callers never see ``sqlite3.*``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from memquill.store import errors
from memquill.store.errors import Fault

UNIQUE = ("UNIQUE constraint failed", "PRIMARY KEY")


def classify(exc: BaseException) -> Fault:
    if isinstance(exc, sqlite3.IntegrityError) and any(u in str(exc) for u in UNIQUE):
        return Fault.CONFLICT
    if isinstance(exc, sqlite3.DataError):
        return Fault.INVALID
    if isinstance(exc, sqlite3.OperationalError):
        return Fault.UNAVAILABLE  # locked past the busy timeout, disk full, unreadable file
    return Fault.OTHER


@contextmanager
def translate(context: str = "SQLite") -> Iterator[None]:
    with errors.translate(context, sqlite3.Error, classify):
        yield
