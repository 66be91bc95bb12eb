"""Driver errors → ``memquill.errors``, one mapping for every backend.

Each backend only classifies its driver's exceptions into a ``Fault``; what a fault means
to callers (which memquill error, which message) is decided here, once, so the stores
cannot drift: a unique violation is a ``ConflictError`` on SQLite and on PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum

from memquill.errors import ConflictError, MemquillError, StoreError, ValidationError


class Fault(Enum):
    CONFLICT = "conflict"  # a concurrent writer or an existing row: re-read and retry
    INVALID = "invalid"  # the database rejected a value
    UNAVAILABLE = "unavailable"  # cannot reach or lock the database
    OTHER = "other"


def to_error(fault: Fault, context: str, exc: BaseException) -> MemquillError:
    detail = f"{type(exc).__name__}: {exc}"
    if fault is Fault.CONFLICT:
        return ConflictError(f"{context}: a concurrent change or an existing row got in the way ({detail})")
    if fault is Fault.INVALID:
        return ValidationError(f"{context}: the database rejected a value ({detail})")
    if fault is Fault.UNAVAILABLE:
        return StoreError(f"{context}: the database is unavailable ({detail})")
    return StoreError(f"{context}: {detail}")


@contextmanager
def translate(
    context: str, driver_error: type[BaseException], classify: Callable[[BaseException], Fault]
) -> Iterator[None]:
    """Re-raise ``driver_error``s as memquill errors; everything else passes through."""
    try:
        yield
    except driver_error as exc:
        raise to_error(classify(exc), context, exc) from exc
