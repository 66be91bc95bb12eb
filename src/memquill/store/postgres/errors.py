"""psycopg errors → ``memquill.errors``, at the store boundary (callers never see ``psycopg.*``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import errors as pg

from memquill.errors import ConflictError, StoreError, ValidationError


@contextmanager
def translate(context: str = "PostgreSQL error") -> Iterator[None]:
    try:
        yield
    except (pg.SerializationFailure, pg.DeadlockDetected, pg.LockNotAvailable) as exc:
        raise ConflictError(f"a concurrent transaction got in the way; retry ({exc})") from exc
    except pg.UniqueViolation as exc:
        raise ConflictError(f"already exists: {exc}") from exc
    except psycopg.DataError as exc:
        raise ValidationError(f"PostgreSQL rejected a value: {exc}") from exc
    except psycopg.OperationalError as exc:
        raise StoreError(f"{context}: PostgreSQL is unavailable: {exc}") from exc
    except psycopg.Error as exc:
        raise StoreError(f"{context}: {type(exc).__name__}: {exc}") from exc
