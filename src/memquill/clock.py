"""Time, injected.

Nothing below the composition root reads the wall clock: every time-dependent rule
(validity, TTL, decay, relative dates) takes "now" from a ``Clock`` so tests can pin it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Protocol, runtime_checkable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from memquill.errors import NaiveDatetimeError, ValidationError


@runtime_checkable
class Clock(Protocol):
    def now(self) -> datetime:
        """The current instant, timezone-aware (UTC)."""
        ...


class SystemClock:
    """The real clock; the only place memquill calls ``datetime.now``."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class FixedClock:
    """A clock that only moves when told to; for tests and replays."""

    def __init__(self, at: datetime | str) -> None:
        self._now = as_utc(parse_instant(at) if isinstance(at, str) else at)

    def now(self) -> datetime:
        return self._now

    def set(self, at: datetime | str) -> None:
        self._now = as_utc(parse_instant(at) if isinstance(at, str) else at)

    def advance(self, **delta: float) -> datetime:
        self._now = self._now + timedelta(**delta)
        return self._now


# Instants memquill accepts: relative dates ("in 3 years") and windows around them must stay
# representable, so the far ends of ``datetime`` are refused up front.
MIN_YEAR, MAX_YEAR = 1000, 8999
_OFFSET = re.compile(r"^(?:UTC)?([+-])(\d{2}):?(\d{2})$")


def zone(name: str | None) -> tzinfo:
    """A ZoneInfo, a fixed offset ("+08:00", as taken from an ``at=`` value), or a typed
    error for an unknown name."""
    if name is not None and not isinstance(name, str):
        raise ValidationError(f"timezone must be a string such as 'Asia/Shanghai', got {type(name).__name__}")
    m = _OFFSET.match(name or "")
    if m:
        sign, hours, minutes = m.groups()
        delta = timedelta(hours=int(hours), minutes=int(minutes))
        if delta >= timedelta(hours=24):
            raise ValidationError(f"timezone offset out of range: {name!r}")
        return timezone(-delta if sign == "-" else delta)
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:  # OSError: a name too long for a path
        shown = name if name is None or len(name) <= 64 else f"{name[:64]}…"
        raise ValidationError(f"unknown timezone {shown!r}") from exc


def as_utc(dt: datetime) -> datetime:
    if dt.tzinfo is None:
        raise NaiveDatetimeError(f"datetime {dt.isoformat()} has no timezone")
    return dt.astimezone(UTC)


def offset_name(value: datetime | str) -> str | None:
    """The zone an aware ``at=`` value was written in: its IANA name when it carries one,
    else its UTC offset ("+08:00"); None for a naive or unreadable value."""
    if isinstance(value, datetime) and isinstance(value.tzinfo, ZoneInfo):
        return value.tzinfo.key
    dt = value if isinstance(value, datetime) else parse_naive_ok(value) if isinstance(value, str) else None
    off = None if dt is None or dt.tzinfo is None else dt.utcoffset()
    if off is None:
        return None
    total = int(off.total_seconds()) // 60
    sign = "-" if total < 0 else "+"
    return f"{sign}{abs(total) // 60:02d}:{abs(total) % 60:02d}"


def parse_naive_ok(value: str) -> datetime | None:
    try:
        return datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def parse_instant(value: datetime | str, timezone: str | None = None) -> datetime:
    """An aware UTC datetime from an ISO string or datetime.

    A naive value is accepted only when ``timezone`` says how to read it.
    """
    if isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError as exc:
            raise ValidationError(f"not an ISO-8601 datetime: {value!r}") from exc
    elif isinstance(value, datetime):
        dt = value
    else:
        raise ValidationError(f"expected a datetime or ISO string, got {type(value).__name__}")
    if dt.tzinfo is None:
        if not timezone:
            raise NaiveDatetimeError(
                f"datetime {dt.isoformat()} has no timezone; pass an aware value or timezone="
            )
        dt = dt.replace(tzinfo=zone(timezone))
    try:
        utc = dt.astimezone(UTC)
    except (OverflowError, ValueError) as exc:
        raise ValidationError(f"datetime {dt.isoformat()} is out of range") from exc
    if not MIN_YEAR <= utc.year <= MAX_YEAR:
        raise ValidationError(f"datetime {dt.isoformat()} is outside the years {MIN_YEAR}..{MAX_YEAR}")
    return utc


def to_epoch(dt: datetime | None) -> float | None:
    return None if dt is None else dt.timestamp()


def from_epoch(ts: float | None) -> datetime | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC)
