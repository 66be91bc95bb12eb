"""Compiled query ≡ oracle: every backend selects exactly what ``model.query.matches`` selects.

Random records (scope dimensions from small alphabets, statuses, types, validity windows,
expiry) are written, some are updated after the vector mirror is warm, then random
``RecordFilter``s are checked on ``find``, ``count``, ``lexical`` and ``vector``. A second
property: any valid ``MemoryRecord`` survives ``Create`` → ``get`` unchanged.

Each example gets a fresh store from the ``make_store`` factory (hence the suppressed
function-scoped-fixture health check: the factory, not the store, is shared).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memquill.model import (
    Audit,
    Create,
    MemoryRecord,
    MemoryType,
    Polarity,
    RevisionOp,
    Scope,
    Source,
    Status,
    Update,
)
from memquill.model.query import ACTIVE_ONLY, TEMPORAL, RecordFilter, matches
from memquill.store.base import Store
from tests.conformance.builders import T0

MakeStore = Callable[..., Store]
DIM = 8
INSTANTS = [T0 + timedelta(hours=h) for h in range(-3, 4)]
# boundaries (== valid_from / valid_to / expires_at) and points between them
PROBES = INSTANTS + [t + timedelta(minutes=30) for t in INSTANTS[:-1]]
SUBJECTS = ("user", "project:api")
KEYS = ("beverage", "database")
WORDS = ("alpha", "bravo", "charlie")
HAS_OWNER = "owner" in {f.name for f in dataclasses.fields(RecordFilter)}

SETTINGS = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def weighted(*values: Any) -> st.SearchStrategy[Any]:
    """``None`` half the time, else one of ``values``: unbound dimensions are common."""
    return st.sampled_from((None,) * len(values) + values)


maybe_instant = weighted(*INSTANTS[::2]) | st.sampled_from(INSTANTS)


@st.composite
def scopes(draw: st.DrawFn) -> Scope:
    return Scope(
        tenant=draw(st.sampled_from(("t1", "t2"))),
        user=draw(st.sampled_from(("u1", "u2"))),
        agent=draw(weighted("a1", "a2")),
        project=draw(weighted("p1", "p2")),
        session=draw(weighted("s1", "s2")),
    )


@st.composite
def readers(draw: st.DrawFn, target: Scope | None) -> Scope:
    """Mostly the target's own scope with some unbound dimensions filled in, else random."""
    if target is None or draw(st.integers(0, 3)) == 0:
        return draw(scopes())
    fill = {
        dim: draw(st.sampled_from((None, f"{dim[0]}1", f"{dim[0]}2")))
        for dim in ("agent", "project", "session")
        if getattr(target, dim) is None
    }
    return target.model_copy(update={k: v for k, v in fill.items() if v is not None})


@st.composite
def small_records(draw: st.DrawFn, id: str, sc: Scope | None = None) -> MemoryRecord:
    """A record over small alphabets, so filters and records often meet at boundaries."""
    if sc is None:
        sc = draw(scopes())
    return MemoryRecord(
        id=id,
        type=draw(st.sampled_from(MemoryType)),
        scope=sc,
        subject=draw(st.sampled_from(SUBJECTS)),
        key=draw(st.sampled_from(KEYS)),
        content=f"memo {draw(st.sampled_from(WORDS))}",
        valid_from=draw(maybe_instant),
        valid_to=draw(maybe_instant),
        expires_at=draw(maybe_instant),
        confidence=0.9,
        source=Source.EXPLICIT,
        status=draw(st.sampled_from((Status.ACTIVE,) * 3 + tuple(Status))),
        evidence=["evt-1"],
        created_at=T0,
        updated_at=draw(st.sampled_from(INSTANTS)),
    )


@st.composite
def filters(draw: st.DrawFn, records: list[MemoryRecord]) -> RecordFilter:
    """A random filter; each part usually admits one target record, so matches are common."""
    t = draw(st.sampled_from(records)) if records else None

    def odd() -> bool:  # the part is drawn without regard to the target
        return t is None or draw(st.integers(0, 3)) == 0

    def admitting(value: Any, pool: Any, *presets: frozenset[Any]) -> frozenset[Any] | None:
        if odd():
            return draw(st.sampled_from((None, *presets)) | st.frozensets(st.sampled_from(pool)))
        return draw(st.frozensets(st.sampled_from(pool))) | {value}

    def slot(name: str, pool: tuple[str, ...]) -> str | None:
        if draw(st.booleans()):
            return None
        return draw(st.sampled_from(pool)) if odd() else getattr(t, name)

    exact = draw(st.integers(0, 3)) == 0
    reader = (
        t.scope if t is not None and exact and not odd() else draw(readers(None if t is None else t.scope))
    )
    valid = [p for p in PROBES if t is not None and t.valid_at(p)]
    at = None if draw(st.booleans()) else draw(st.sampled_from(PROBES if odd() or not valid else valid))
    extra: dict[str, Any] = {}
    if HAS_OWNER:
        extra["owner"] = draw(st.integers(0, 4)) == 0
    return RecordFilter(
        reader=reader,
        statuses=admitting(t and t.status, Status, ACTIVE_ONLY, TEMPORAL),
        types=admitting(t and t.type, MemoryType),
        at=at,
        subject=slot("subject", SUBJECTS),
        key=slot("key", KEYS),
        exact_scope=exact,
        **extra,
    )


def unit(seed: int) -> list[float]:
    v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return (v / np.linalg.norm(v)).tolist()


QUERY = np.asarray(unit(12345), dtype=np.float32)
ADD = Audit(RevisionOp.ADD, "tester", "property")
EDIT = Audit(RevisionOp.UPDATE, "tester", "property")


def check(store: Store, current: dict[str, MemoryRecord], f: RecordFilter) -> None:
    expected = {i for i, r in current.items() if matches(r, f)}
    found = store.find(f)
    got = [r.id for r in found]
    assert sorted(got) == sorted(expected), f
    assert all(r.model_dump() == current[r.id].model_dump() for r in found)
    stamps = [r.updated_at for r in found]
    assert stamps == sorted(stamps, reverse=True), "find is newest first"
    assert store.count(f) == len(expected)
    hits = store.vector(f, QUERY, 1000)
    assert sorted(h[0] for h in hits) == sorted(expected), ("vector", f)
    scores = [h[1] for h in hits]
    assert scores == sorted(scores, reverse=True)
    lex = store.lexical(f, ["memo"], 1000)
    assert sorted(h[0] for h in lex) == sorted(expected), ("lexical", f)


def edit(data: st.DataObject, old: MemoryRecord) -> Update:
    """Revision 2 of ``old``: new fields and bindings, same tenant and user."""
    dims = {k: data.draw(st.sampled_from((None, "a1", "p1", "s1"))) for k in ("agent", "project", "session")}
    owner = old.scope.model_copy(update=dims)
    new = data.draw(small_records(old.id, owner)).model_copy(update={"revision": 2})
    return Update(new, 1, EDIT, embedding=data.draw(st.none() | st.just(unit(7))))


@SETTINGS
@given(data=st.data())
def test_find_count_vector_lexical_match_the_oracle(make_store: MakeStore, data: st.DataObject) -> None:
    store = make_store(dim=DIM)
    n = data.draw(st.integers(0, 10), label="records")
    first = [data.draw(small_records(f"r{i}"), label=f"r{i}") for i in range(n)]
    current = {r.id: r for r in first}
    if first:
        store.apply([Create(r, ADD, embedding=unit(i)) for i, r in enumerate(first)])
    for tenant in ("t1", "t2"):  # warm every partition of the vector mirror
        for user in ("u1", "u2"):
            store.vector(RecordFilter(Scope(tenant=tenant, user=user)), np.ones(DIM, np.float32), 1)

    # a second batch: more records, and updates that keep each record's owner (tenant, user)
    more = [data.draw(small_records(f"r{i}"), label=f"r{i}") for i in range(n, n + 3)]
    changes: list[Create | Update] = [Create(r, ADD, embedding=unit(100 + j)) for j, r in enumerate(more)]
    if first:
        edited = data.draw(st.lists(st.sampled_from(first), unique_by=lambda r: r.id), label="edit")
        changes.extend(edit(data, old) for old in edited)
    store.apply(changes)
    current.update({ch.record.id: ch.record for ch in changes})

    targets = list(current.values())
    for f in data.draw(st.lists(filters(targets), min_size=1, max_size=8), label="filters"):
        check(store, current, f)


# --- round trip ------------------------------------------------------------------------------
# NUL is left out on purpose: PostgreSQL text/jsonb cannot hold it at all.
text = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=30)
name = text.filter(lambda s: 0 < len(s.strip()) <= 256)
aware = st.datetimes(
    min_value=datetime(1900, 1, 1),
    max_value=datetime(2200, 12, 31),
    timezones=st.sampled_from([UTC, timezone(timedelta(hours=8)), timezone(-timedelta(hours=5, minutes=30))]),
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def any_records(draw: st.DrawFn) -> MemoryRecord:
    opt_dt = st.none() | aware
    return MemoryRecord(
        id=draw(name),
        revision=1,
        type=draw(st.sampled_from(MemoryType)),
        scope=Scope(
            tenant=draw(name),
            user=draw(name),
            agent=draw(st.none() | name),
            project=draw(st.none() | name),
            session=draw(st.none() | name),
        ),
        subject=draw(text),
        key=draw(text),
        value=draw(st.none() | text),
        content=draw(text),
        polarity=draw(st.sampled_from(Polarity)),
        conditions=draw(st.lists(text, max_size=3)),
        valid_from=draw(opt_dt),
        valid_to=draw(opt_dt),
        expires_at=draw(opt_dt),
        when_start=draw(opt_dt),
        when_end=draw(opt_dt),
        observed_at=draw(opt_dt),
        confidence=draw(st.floats(0.0, 1.0)),
        source=draw(st.sampled_from(Source)),
        status=draw(st.sampled_from(Status)),
        supersedes=draw(st.none() | name),
        superseded_by=draw(st.none() | name),
        conflicts_with=draw(st.lists(name, max_size=3)),
        evidence=draw(st.lists(name, min_size=1, max_size=3)),
        actor=draw(name),
        created_at=draw(aware),
        updated_at=draw(aware),
        last_accessed_at=draw(opt_dt),
        access_count=draw(st.integers(0, 10**6)),
        useful_count=draw(st.integers(0, 10**6)),
        read_only=draw(st.booleans()),
        language=draw(st.sampled_from(("en", "zh"))),
        attributes=draw(st.dictionaries(text, json_values, max_size=4)),
    )


@SETTINGS
@given(rec=any_records(), embed=st.booleans())
def test_any_record_survives_create_then_get(make_store: MakeStore, rec: MemoryRecord, embed: bool) -> None:
    store = make_store(dim=DIM)
    store.apply([Create(rec, ADD, embedding=unit(3) if embed else None)])
    got = store.get(rec.id)
    assert got is not None
    assert got.model_dump() == rec.model_dump()
    [made] = store.history(rec.id)
    assert made.after == rec.model_dump(mode="json")
    assert (rec.id in store.embeddings([rec.id])) is embed
