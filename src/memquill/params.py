"""Checks for the public API's plain parameters: every bad value becomes a typed
``ValidationError`` before anything is read or written, never a ``TypeError`` from deep inside.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from memquill.errors import ValidationError
from memquill.model import MemoryType

MAX_K = 1000
MAX_TEXT = 256
MAX_BUDGET = 10_000_000


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValidationError(f"{name} must be True or False, got {type(value).__name__}")
    return value


def count(value: Any, name: str, low: int = 1, high: int = MAX_K) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValidationError(f"{name} must be an integer in {low}..{high}, got {value!r}")
    return value


def text(value: Any, name: str, max_len: int = MAX_TEXT, empty: bool = False) -> str:
    bad = not isinstance(value, str) or (not empty and not value.strip()) or len(value) > max_len
    if bad or "\x00" in value:
        raise ValidationError(
            f"{name} must be a {'' if empty else 'non-empty '}string of at most {max_len} "
            f"characters without NUL, got {_short(value)}"
        )
    return str(value)


def maybe_text(value: Any, name: str, max_len: int = MAX_TEXT) -> str | None:
    return None if value is None else text(value, name, max_len)


def texts(value: Any, name: str, max_len: int = 4096) -> list[str]:
    """A list of strings, from any iterable that is not itself a string or mapping."""
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise ValidationError(f"{name} must be a list of strings, got {type(value).__name__}")
    return [text(v, f"{name}[{i}]", max_len, empty=True) for i, v in enumerate(value)]


def mapping(value: Any, name: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise ValidationError(f"{name} must be a dict with string keys, got {type(value).__name__}")
    return dict(value)


def _short(value: Any) -> str:
    r = repr(value)
    return r if len(r) <= 40 else r[:37] + "..."


def enum(kind: Any, value: Any, what: str) -> Any:
    """``kind(value)``, or a typed error that lists the known values."""
    try:
        return kind(value)
    except ValueError as exc:
        known = ", ".join(m.value for m in kind)
        raise ValidationError(f"unknown {what} {value!r}; known: {known}") from exc


def types(values: Iterable[str] | None) -> frozenset[MemoryType] | None:
    """A ``types=`` filter: memory type names, checked."""
    if values is None:
        return None
    return frozenset(enum(MemoryType, t, "type") for t in texts(values, "types"))
