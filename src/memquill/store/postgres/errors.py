"""psycopg errors classified for ``store.errors`` (callers never see ``psycopg.*``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import errors as pg

from memquill.store import errors
from memquill.store.errors import Fault

CONFLICTS = (pg.SerializationFailure, pg.DeadlockDetected, pg.LockNotAvailable, pg.UniqueViolation)


def classify(exc: BaseException) -> Fault:
    if isinstance(exc, CONFLICTS):
        return Fault.CONFLICT
    if isinstance(exc, psycopg.DataError):
        return Fault.INVALID
    if isinstance(exc, psycopg.OperationalError):
        return Fault.UNAVAILABLE
    return Fault.OTHER


@contextmanager
def translate(context: str = "PostgreSQL") -> Iterator[None]:
    with errors.translate(context, psycopg.Error, classify):
        yield
