"""Records → catalogue attributes, for the read side (profile, safety, intent expansion).

The attribute catalogue (``memquill/data/attributes.json``) says which attributes belong in
the always-present profile and which are safety-critical; the code never guesses that from
words. Record keys come in two shapes — older ones carry the value (``allergy:peanut``,
``beverage:coffee``, ``stack:postgresql``), newer ones are catalogue keys (``subject`` +
``key``) — and both go through :func:`attribute_of`, the one place that maps them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from memquill.errors import ConfigError
from memquill.model import MemoryRecord, MemoryType

PROFILE_GROUPS = ("identity", "constraint", "preference", "context")
# Keys written before the catalogue, and the catalogue attribute each one names.
LEGACY = {
    "location": "city",
    "role": "occupation",
    "contact": "contact_channel",
    "dislikes": "dislike",
    "indentation": "convention:indentation",
    "package_manager": "stack:package_manager",
    "database": "stack:database",
    "frontend": "stack:frontend",
    "language": "stack:language",
    "cache": "stack:cache",
    "message_queue": "stack:queue",
    "cloud": "stack:cloud",
    "runtime": "stack:runtime",
    "api_style": "stack:api_style",
    "state_management": "stack:state_management",
    "styling": "stack:styling",
}


@dataclass(frozen=True)
class Attribute:
    """The read-side view of one catalogue entry."""

    key: str
    subjects: tuple[str, ...] = ("user",)
    memory_type: str = "fact"
    profile: str = "none"  # identity | constraint | preference | context | none
    safety_critical: bool = False
    sensitive: bool = False  # private, not safety-critical: shown only where the request bears on it
    region: bool = False  # a named region (city, country, hometown): its lines name a place
    labels: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()


MEMO_SIZE = 16384


@dataclass(frozen=True)
class Catalogue:
    attributes: Mapping[str, Attribute] = field(default_factory=dict)
    # attribute_of() per (subject, key, type): context() asks for ~1,000 records a request
    memo: dict[tuple[str, str, MemoryType], Attribute] = field(
        default_factory=dict, compare=False, repr=False, hash=False
    )

    def lookup(self, subject: str, key: str) -> Attribute | None:
        """The attribute a record slot refers to: the full key, then its head word
        (``allergy:peanut`` → ``allergy``), each also through the legacy names."""
        head = key.split(":", 1)[0]
        for candidate in (key, LEGACY.get(key), head, LEGACY.get(head)):
            attr = self.attributes.get(candidate) if candidate else None
            if attr is not None and _subject_fits(subject, attr.subjects):
                return attr
        return None

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.attributes.values())


def _subject_fits(subject: str, subjects: tuple[str, ...]) -> bool:
    if not subjects:
        return True
    head = subject.split(":", 1)[0]
    return subject in subjects or head in subjects or "*" in subjects


def _strings(value: Any) -> tuple[str, ...]:
    """Labels and questions may be a list or a per-language mapping of lists/strings."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Mapping):
        return tuple(s for v in value.values() for s in _strings(v))
    if isinstance(value, Iterable):
        return tuple(s for v in value for s in _strings(v))
    return ()


def parse(data: Any) -> Catalogue:
    """A catalogue from its JSON form: a list of entries or ``{"attributes": [...]}``."""
    entries = data.get("attributes", []) if isinstance(data, Mapping) else data
    if not isinstance(entries, list):
        raise ConfigError("attribute catalogue: expected a list of attributes")
    out: dict[str, Attribute] = {}
    for e in entries:
        if not isinstance(e, Mapping) or not isinstance(e.get("key"), str):
            raise ConfigError(f"attribute catalogue: entry without a key: {e!r}")
        profile = str(e.get("profile") or "none")
        if profile not in (*PROFILE_GROUPS, "none"):
            raise ConfigError(f"attribute catalogue: {e['key']}: unknown profile {profile!r}")
        out[e["key"]] = Attribute(
            key=e["key"],
            subjects=_strings(e.get("subjects")) or ("user",),
            memory_type=str(e.get("memory_type") or "fact"),
            profile=profile,
            safety_critical=bool(e.get("safety_critical", False)),
            sensitive=bool(e.get("sensitive", False)),
            region=bool(e.get("region", False)),
            labels=_strings(e.get("labels")),
            questions=_strings(e.get("questions")),
        )
    return Catalogue(out)


@lru_cache(maxsize=1)
def bundled() -> Catalogue:
    """The catalogue shipped in the package (empty until one is installed)."""
    try:
        text = resources.files("memquill").joinpath("data/attributes.json").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return Catalogue()
    return parse(json.loads(text))


def attribute_of(rec: MemoryRecord, catalogue: Catalogue | None = None) -> Attribute:
    """The catalogue attribute of a record, or a stand-in derived from its type.

    Without a catalogue entry a user preference is a profile preference and a user fact is
    context; nothing is safety-critical unless the catalogue says so.
    """
    cat = catalogue or bundled()
    slot = (rec.subject, rec.key, rec.type)
    found = cat.memo.get(slot)
    if found is None:
        if len(cat.memo) >= MEMO_SIZE:
            cat.memo.clear()
        found = cat.memo[slot] = _attribute(cat, *slot)
    return found


def stand_in(rec: MemoryRecord) -> Attribute:
    """The attribute a record would have if the catalogue did not know its key: for a
    reading too unsure to trust its key (a candidate), nothing the key flags."""
    return _stand_in(rec.key, rec.subject, rec.type)


def _attribute(cat: Catalogue, subject: str, key: str, kind: MemoryType) -> Attribute:
    found = cat.lookup(subject, key)
    return found if found is not None else _stand_in(key, subject, kind)


def _stand_in(key: str, subject: str, kind: MemoryType) -> Attribute:
    group = {MemoryType.PREFERENCE: "preference", MemoryType.FACT: "context"}.get(kind, "none")
    return Attribute(key=key.split(":", 1)[0], subjects=(subject,), memory_type=kind.value, profile=group)
