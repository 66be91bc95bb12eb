"""The data of a reconcile decision: proposal, view, policy and decision (no I/O, no rules).

Kept apart from ``reconcile.py`` (the rules) and ``reconcile_changes.py`` (the typed changes
each outcome writes) so both can import it without a cycle.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from memquill.catalogue import load
from memquill.model import Candidate, Change, MemoryRecord, Scope
from memquill.providers.base import Vector
from memquill.text import norm_value
from memquill.write.extract.normalise import same_value

Embed = Callable[[], Vector | None]


class Op(StrEnum):
    ADD = "add"
    UPDATE = "update"
    INVALIDATE = "invalidate"
    NOOP = "noop"
    FLAG = "flag"


def same_normalised(key: str, a: str, b: str) -> bool:
    """Plain value equality: equal after normalisation, whatever the attribute."""
    return norm_value(a) == norm_value(b)


def single_valued(key: str) -> bool:
    """Every slot holds one value, so a new value supersedes."""
    return False


def catalogue_same_value(key: str, a: str, b: str) -> bool:
    """Equal after normalisation, or the same value by the attribute's value type: a
    synonym or the other language ("tea"/"茶", "Postgres"/"PostgreSQL")."""
    if norm_value(a) == norm_value(b):
        return True
    attr = load().get(key)
    return same_value(a, b, attr.value_type if attr else "text")


def catalogue_multi_valued(key: str) -> bool:
    """The catalogue's cardinality: ``multi`` attributes keep several values."""
    attr = load().get(key)
    return attr is not None and not attr.single


def catalogue_kind_of(key: str, value: str, text: str) -> str | None:
    """The catalogue's kind of a value (``Attribute.kinds``): a kind holds one value."""
    attr = load().get(key)
    return attr.kind_of(value, text) if attr is not None and attr.kinds else None


@dataclass(frozen=True)
class Policy:
    """Who may overwrite what, the thresholds from Settings, and value/attribute lookups."""

    confidence_floor: float = 0.6
    duplicate_similarity: float = 0.92
    duplicate_overlap: float = 0.85  # ordered term overlap also required: e5 scores are compressed
    promote_after: int = 2  # evidence count that promotes a recurring candidate
    external_can_activate: bool = False
    same_value: Callable[[str, str, str], bool] = catalogue_same_value  # (key, a, b)
    multi_valued: Callable[[str], bool] = catalogue_multi_valued  # key -> values may coexist
    kind_of: Callable[[str, str, str], str | None] = catalogue_kind_of  # (key, value, clause)


def mint_id() -> str:
    return f"mem-{uuid.uuid4().hex[:20]}"


@dataclass(frozen=True)
class Proposal:
    """One candidate, where it will live, when and by whom it is written."""

    candidate: Candidate
    scope: Scope
    now: datetime
    actor: str
    new_id: Callable[[], str] = mint_id


@dataclass(frozen=True)
class Near:
    """A lexical near-duplicate in the proposal's scope, with its stored embedding."""

    record: MemoryRecord
    embedding: Vector | None = None


@dataclass(frozen=True)
class View:
    """Everything a decision may look at, read before deciding.

    ``slot``: the records of the exact scope, subject and key in every status;
    ``near``: lexical near-duplicates of the content in the scope (open statuses, same type),
    best first; ``chain``: predecessors reachable through ``supersedes`` that are not in
    the slot, by id."""

    slot: tuple[MemoryRecord, ...] = ()
    near: tuple[Near, ...] = ()
    chain: Mapping[str, MemoryRecord] = field(default_factory=dict)

    def record(self, memory_id: str | None) -> MemoryRecord | None:
        if memory_id is None:
            return None
        found = next((r for r in self.slot if r.id == memory_id), None)
        return found if found is not None else self.chain.get(memory_id)


@dataclass(frozen=True)
class Decision:
    op: Op
    candidate: Candidate
    scope: Scope
    reason: str
    memory_id: str
    target: MemoryRecord | None = None
    changes: tuple[Change, ...] = ()


def start_of(r: MemoryRecord) -> datetime | None:
    """When a version began to hold: its validity start, or when it was (last) said."""
    return max((t for t in (r.valid_from, r.observed_at) if t is not None), default=None)
