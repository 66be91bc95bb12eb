"""The Store contract, tested through the Protocol only (DESIGN §3, §4 rules 5-7).

Every test runs on each backend selected with ``--backend`` (sqlite, postgres, all).
Tests that need a second connection to one file are SQLite-only and say so.
No mocks: a real database every time.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pytest

from memquill.errors import ConflictError, DuplicateEventError, MemquillError, NotFoundError
from memquill.model import (
    Change,
    Create,
    MemoryRecord,
    MemoryType,
    Polarity,
    RevisionOp,
    Scope,
    SlotGuard,
    Source,
    Status,
    Update,
)
from memquill.model.query import TEMPORAL, Access, JobStatus, RecordFilter
from memquill.store.base import Store
from memquill.text import query_terms
from tests.conformance.builders import (
    T0,
    at,
    audit,
    create,
    event,
    everything,
    hit_ids,
    ids,
    job,
    purge,
    put,
    qvec,
    record,
    scope,
    update,
    vec,
)

MakeStore = Callable[..., Store]


def sqlite_only(backend: str) -> None:
    if backend != "sqlite":
        pytest.skip("SQLite-only: needs two connections to one database file")


def test_store_satisfies_protocol(store: Store, backend: str) -> None:
    assert isinstance(store, Store)
    assert store.backend == backend


# ======================================================================================
# events
# ======================================================================================
class TestEvents:
    def test_append_is_idempotent(self, store: Store) -> None:
        e = event("evt-1")
        first, created = store.append_event(e)
        assert created is True
        assert first.seq is not None and first.seq > 0
        again, created_again = store.append_event(e)
        assert created_again is False
        assert again.seq == first.seq
        assert again.content == e.content

    def test_same_id_different_content_is_rejected(self, store: Store) -> None:
        store.append_event(event("evt-1", "I never drink coffee"))
        with pytest.raises(DuplicateEventError):
            store.append_event(event("evt-1", "I love coffee"))
        [kept] = store.get_events(scope(), ["evt-1"])
        assert kept.content == "I never drink coffee"

    def test_same_id_under_another_user_is_another_event(self, store: Store) -> None:
        a, _ = store.append_event(event("evt-1", "alice text", sc=scope("alice", session="s1")))
        b, created = store.append_event(event("evt-1", "bob text", sc=scope("bob", session="s1")))
        assert created is True
        assert a.seq != b.seq
        assert [e.content for e in store.get_events(scope("alice"), ["evt-1"])] == ["alice text"]
        assert [e.content for e in store.get_events(scope("bob"), ["evt-1"])] == ["bob text"]
        other_tenant = scope("alice", tenant="other")
        assert store.get_events(other_tenant, ["evt-1"]) == []

    def test_event_round_trips(self, store: Store) -> None:
        e = event(
            "evt-1",
            "我不喝咖啡",
            sc=scope(project="web", session="s1", agent="planner"),
            timezone="Asia/Shanghai",
            metadata={"k": [1, "二"], "nested": {"a": None}},
        )
        store.append_event(e)
        [got] = store.get_events(scope(), ["evt-1"])
        assert got.model_dump(exclude={"seq"}) == e.model_dump(exclude={"seq"})
        assert got.occurred_at.utcoffset() is not None

    def test_get_events_in_append_order_and_scoped(self, store: Store) -> None:
        for i in (3, 1, 2):
            store.append_event(event(f"evt-{i}", f"text {i}", minutes=i))
        store.append_event(event("evt-9", "bob", sc=scope("bob", session="s1")))
        got = store.get_events(scope(), ["evt-1", "evt-2", "evt-3", "evt-9", "missing"])
        assert [e.id for e in got] == ["evt-3", "evt-1", "evt-2"]  # append order, not id order
        seqs = [e.seq or 0 for e in got]
        assert seqs == sorted(seqs)
        assert store.get_events(scope(), []) == []

    def test_session_events_order_and_scoping(self, store: Store) -> None:
        s1, s2 = scope(session="s1"), scope(session="s2")
        store.append_event(event("a", "one", sc=s1))
        store.append_event(event("b", "two", sc=s2))
        store.append_event(event("c", "three", sc=s1))
        store.append_event(event("d", "bob's", sc=scope("bob", session="s1")))
        store.append_event(event("e", "other tenant", sc=scope(tenant="t2", session="s1")))
        store.append_event(event("f", "four", sc=s1))
        got = store.session_events(scope(), "s1")
        assert [e.id for e in got] == ["a", "c", "f"]
        assert [e.id for e in store.session_events(scope(), "s1", after_seq=got[0].seq or 0)] == [
            "c",
            "f",
        ]
        assert [e.id for e in store.session_events(scope(), "s1", limit=2)] == ["a", "c"]
        assert [e.id for e in store.session_events(scope("bob"), "s1")] == ["d"]
        assert store.session_events(scope(), "nope") == []

    def test_jobs_are_enqueued_only_with_a_new_event(self, store: Store) -> None:
        _, created = store.append_event(event("evt-1"), [job("k1")])
        assert created
        assert store.job_counts() == {JobStatus.QUEUED: 1}
        _, created = store.append_event(event("evt-1"), [job("k2")])
        assert not created
        assert store.job_counts() == {JobStatus.QUEUED: 1}
        with pytest.raises(DuplicateEventError):
            store.append_event(event("evt-1", "changed"), [job("k3")])
        assert store.job_counts() == {JobStatus.QUEUED: 1}
        [claimed] = store.claim("w", at(minutes=1), 60, 10)
        assert claimed.key == "k1"

    def test_event_job_learns_the_event_seq(self, store: Store) -> None:
        """Memory.add builds its extract job before the event has a seq (payload seq None)."""
        stored, _ = store.append_event(event("evt-1"), [job("k1", payload={"seq": None})])
        [claimed] = store.claim("w", at(minutes=1), 60, 10)
        assert claimed.payload["seq"] == stored.seq


# ======================================================================================
# apply: create / update / purge
# ======================================================================================
def full_record() -> MemoryRecord:
    return record(
        "m-full",
        "Alice does not drink coffee after 3pm",
        sc=scope(project="web", session="s1", agent="planner"),
        type=MemoryType.FACT,
        value="no coffee",
        polarity=Polarity.NEGATIVE,
        conditions=["after 3pm", "on workdays"],
        valid_from=at(days=-10),
        valid_to=at(days=30),
        expires_at=at(days=60),
        when_start=at(days=1),
        when_end=at(days=1, hours=2),
        observed_at=at(minutes=-5),
        confidence=0.73,
        source=Source.OBSERVED,
        status=Status.NEEDS_REVIEW,
        supersedes="m-old",
        superseded_by="m-new",
        conflicts_with=["m-x", "m-y"],
        evidence=["evt-1", "evt-2"],
        actor="agent:planner",
        created_at=at(minutes=-1),
        updated_at=T0,
        last_accessed_at=at(minutes=-2),
        access_count=4,
        useful_count=2,
        read_only=True,
        language="zh",
        attributes={"unit": "cup", "n": 3, "ratio": 0.5, "tags": ["a", "b"], "deep": {"x": None}},
    )


class TestApply:
    def test_create_then_get_round_trips_every_field(self, store: Store) -> None:
        rec = full_record()
        result = store.apply([create(rec)])
        assert result.created == ["m-full"]
        got = store.get("m-full")
        assert got is not None
        assert got.model_dump() == rec.model_dump()
        assert got == rec
        for name in (
            "valid_from",
            "valid_to",
            "expires_at",
            "when_start",
            "when_end",
            "observed_at",
            "created_at",
            "updated_at",
            "last_accessed_at",
        ):
            value = getattr(got, name)
            assert value.utcoffset() == timedelta(0), name
        assert store.get("missing") is None

    def test_non_utc_datetimes_keep_their_instant(self, store: Store) -> None:
        cst = timezone(timedelta(hours=8))
        rec = record("m1", valid_from=T0.astimezone(cst), created_at=T0.astimezone(cst))
        put(store, rec)
        got = store.get("m1")
        assert got is not None
        assert got.valid_from == T0 and got.valid_from.utcoffset() is not None
        assert got.created_at == T0

    def test_get_many_keeps_request_order_and_skips_missing(self, store: Store) -> None:
        put(store, record("a"), record("b"), record("c"))
        assert ids(store.get_many(["c", "missing", "a"])) == ["c", "a"]
        assert store.get_many([]) == []

    def test_create_existing_id_conflicts(self, store: Store) -> None:
        put(store, record("m1", "first"))
        with pytest.raises(ConflictError):
            store.apply([create(record("m1", "second"))])
        got = store.get("m1")
        assert got is not None and got.content == "first"
        assert len(store.history("m1")) == 1

    def test_failed_batch_leaves_nothing(self, store: Store) -> None:
        [x] = put(store, record("x", "existing record about tea"))
        seq_before = store.meta("seq")
        batch: list[Change] = [
            create(record("a", "pineapple pizza preference")),
            create(record("b", "pineapple smoothie preference")),
            update(x, expected=x.revision + 5, content="stale write"),
        ]
        with pytest.raises(ConflictError):
            store.apply(batch)
        assert store.get("a") is None and store.get("b") is None
        assert store.history("a") == [] and store.history("b") == []
        assert store.get("x") == x
        assert len(store.history("x")) == 1
        reader = RecordFilter(scope())
        assert store.lexical(reader, query_terms("pineapple"), 10) == []
        assert set(hit_ids(store.vector(reader, qvec("pineapple pizza preference"), 10))) == {"x"}
        assert store.embeddings(["a", "b"]) == {}
        assert store.count(everything(scope())) == 1
        assert store.meta("seq") == seq_before

    def test_duplicate_create_inside_a_batch_rolls_back(self, store: Store) -> None:
        put(store, record("x"))
        with pytest.raises(ConflictError):
            store.apply([create(record("c", "fresh")), create(record("x", "dup"))])
        assert store.get("c") is None and store.history("c") == []

    def test_slot_guard_rejects_a_writer_who_saw_an_older_slot(self, store: Store) -> None:
        def guard(*open_ids: str) -> SlotGuard:
            return SlotGuard(scope(), "user", "beverage", frozenset(open_ids))

        store.apply([guard(), create(record("a", "tea"))])
        with pytest.raises(ConflictError):  # a second writer who also saw an empty slot
            store.apply([guard(), create(record("b", "coffee"))])
        assert store.get("b") is None
        put(
            store,
            record("closed", status=Status.SUPERSEDED),
            record("other-key", key="food"),
            record("other-scope", sc=scope(project="p")),
        )
        store.apply([guard("a"), create(record("c", "cocoa", status=Status.NEEDS_REVIEW))])
        with pytest.raises(ConflictError):
            store.apply([guard("a"), create(record("d", "water"))])
        store.apply([guard("a", "c")])
        assert store.get("d") is None

    def test_update_bumps_revision_and_writes_before_after(self, store: Store) -> None:
        [rec] = put(store, record("m1", "the user drinks green tea"))
        result = store.apply([update(rec, content="the user drinks black coffee", embed=True)])
        assert result.updated == ["m1"]
        got = store.get("m1")
        assert got is not None and got.revision == 2
        assert got.content == "the user drinks black coffee"
        first, second = store.history("m1")
        assert (first.revision, second.revision) == (1, 2)
        assert first.before is None and first.after is not None
        assert first.after["content"] == "the user drinks green tea"
        assert second.before is not None and second.after is not None
        assert second.before["content"] == "the user drinks green tea"
        assert second.before["revision"] == 1
        assert second.after["content"] == "the user drinks black coffee"
        assert second.after["revision"] == 2
        reader = RecordFilter(scope())
        assert hit_ids(store.lexical(reader, query_terms("coffee"), 10)) == ["m1"]
        assert store.lexical(reader, query_terms("green"), 10) == []

    def test_stale_revision_conflicts(self, store: Store) -> None:
        [rec] = put(store, record("m1", "v1"))
        store.apply([update(rec, content="v2")])
        with pytest.raises(ConflictError):
            store.apply([update(rec, content="v2 from a stale reader")])
        got = store.get("m1")
        assert got is not None and (got.revision, got.content) == (2, "v2")
        assert len(store.history("m1")) == 2

    def test_update_must_carry_the_next_revision(self, store: Store) -> None:
        [rec] = put(store, record("m1", "v1"))
        bad = update(rec, content="v2")
        wrong = Update(bad.record.model_copy(update={"revision": 7}), 1, bad.audit)
        with pytest.raises(MemquillError):
            store.apply([wrong])
        assert store.get("m1") == rec

    def test_update_of_missing_id_is_not_found(self, store: Store) -> None:
        with pytest.raises(NotFoundError):
            store.apply([update(record("ghost"))])
        assert store.get("ghost") is None

    def test_status_change_without_reindex_reaches_every_leg(self, store: Store) -> None:
        """The reconciler supersedes with ``reindex=False`` and no embedding."""
        [rec] = put(store, record("m1", "the user drinks green tea"))
        active = RecordFilter(scope())
        q = qvec("the user drinks green tea")
        assert hit_ids(store.vector(active, q, 5)) == ["m1"]
        store.apply([update(rec, status=Status.SUPERSEDED, valid_to=T0, reindex=False)])
        assert store.find(active) == []
        assert store.lexical(active, query_terms("tea"), 5) == []
        assert store.vector(active, q, 5) == []
        temporal = RecordFilter(scope(), statuses=TEMPORAL)
        assert hit_ids(store.lexical(temporal, query_terms("tea"), 5)) == ["m1"]
        assert hit_ids(store.vector(temporal, q, 5)) == ["m1"]  # the old vector is kept
        assert "m1" in store.embeddings(["m1"])

    def test_purge_erases_content_everywhere_and_keeps_a_tombstone(self, store: Store) -> None:
        secret = "zanzibar"
        rec = record(
            "m1",
            f"the user was born in {secret}",
            key=f"{secret}_key",
            value=secret,
            conditions=[f"when in {secret}"],
            attributes={"place": secret},
        )
        put(store, rec)
        store.apply([update(rec, content=f"the user lives in {secret} town", embed=True)])
        q = qvec(f"the user lives in {secret} town")
        anyone = everything(scope())
        assert hit_ids(store.vector(anyone, q, 5)) == ["m1"]

        result = store.apply([purge("m1", reason="GDPR erasure", expected=2)])
        assert result.purged == ["m1"]

        dead = store.get("m1")
        assert dead is not None
        assert dead.status is Status.DELETED
        assert secret not in dead.model_dump_json()
        assert dead.content == ""
        assert "GDPR erasure" in json.dumps(dead.attributes)
        history = store.history("m1")
        assert [r.revision for r in history] == [1, 2, 3]
        for rev in history:
            assert secret not in json.dumps([rev.before, rev.after], default=str)
        assert history[-1].op is RevisionOp.FORGET
        assert history[-1].reason == "GDPR erasure"
        assert store.lexical(anyone, [secret], 10) == []
        assert store.lexical(anyone, query_terms("born town"), 10) == []
        assert store.vector(anyone, q, 10) == []
        assert store.embeddings(["m1"]) == {}
        assert [(r.id, r.status) for r in store.find(anyone)] == [("m1", Status.DELETED)]
        assert store.find(RecordFilter(scope())) == []  # tombstones are not active

    def test_purge_missing_or_stale(self, store: Store) -> None:
        with pytest.raises(NotFoundError):
            store.apply([purge("ghost")])
        [rec] = put(store, record("m1"))
        store.apply([update(rec, content="v2")])
        with pytest.raises(ConflictError):
            store.apply([purge("m1", expected=1)])
        got = store.get("m1")
        assert got is not None and got.content == "v2"

    def test_seq_grows_with_applies(self, store: Store) -> None:
        s0 = int(store.meta("seq"))
        [rec] = put(store, record("m1"))
        s1 = int(store.meta("seq"))
        store.apply([update(rec, content="v2")])
        s2 = int(store.meta("seq"))
        assert s0 < s1 < s2
        assert store.apply([]).created == []
        assert store.meta("no such key") is None


# ======================================================================================
# history
# ======================================================================================
def test_history_oldest_first_with_audit(store: Store) -> None:
    rec = record("m1", "v1")
    store.apply([create(rec, a=audit(RevisionOp.ADD, "user", "said so", ["e1"]))])
    r2 = update(rec, content="v2", a=audit(RevisionOp.SUPERSEDE, "worker", "newer", ["e2", "e3"]))
    store.apply([r2])
    store.apply(
        [update(r2.record, status=Status.ARCHIVED, a=audit(RevisionOp.ARCHIVE, "decay", "unused", []))]
    )
    h = store.history("m1")
    assert [r.revision for r in h] == [1, 2, 3]
    assert [r.op for r in h] == [RevisionOp.ADD, RevisionOp.SUPERSEDE, RevisionOp.ARCHIVE]
    assert [r.actor for r in h] == ["user", "worker", "decay"]
    assert [r.reason for r in h] == ["said so", "newer", "unused"]
    assert [r.event_ids for r in h] == [["e1"], ["e2", "e3"], []]
    assert all(r.memory_id == "m1" and r.at.utcoffset() is not None for r in h)
    assert [r.after["status"] for r in h if r.after] == ["active", "active", "archived"]
    assert store.history("missing") == []


# ======================================================================================
# two connections to one SQLite file
# ======================================================================================
def test_two_connections_share_one_file(make_store: MakeStore, backend: str, tmp_path: Path) -> None:
    sqlite_only(backend)
    path = str(tmp_path / "shared.db")
    one, two = make_store(path), make_store(path)
    reader = RecordFilter(scope())
    assert two.vector(reader, qvec("anything"), 5) == []  # builds two's mirror early

    put(one, record("a", "the user drinks green tea"))
    got = two.get("a")
    assert got is not None and got.content == "the user drinks green tea"
    put(two, record("b", "the project uses postgres"))
    assert set(ids(one.find(reader))) == {"a", "b"}
    one.append_event(event("evt-1"))
    assert [e.id for e in two.get_events(scope(), ["evt-1"])] == ["evt-1"]

    put(one, record("c", "the user plays chess on sundays"))
    hits = two.vector(reader, qvec("the user plays chess on sundays"), 3)
    assert hits[0][0] == "c"  # the mirror refreshed incrementally

    stale = two.get("a")
    assert stale is not None
    one.apply([update(stale, content="the user drinks oolong")])
    with pytest.raises(ConflictError):
        two.apply([update(stale, content="lost update")])
    fresh = two.get("a")
    assert fresh is not None and fresh.content == "the user drinks oolong"

    one.apply([update(fresh, status=Status.SUPERSEDED, reindex=False)])
    assert "a" not in hit_ids(two.vector(reader, qvec("the user drinks oolong"), 5))
    one.apply([purge("c")])
    assert "c" not in hit_ids(two.vector(everything(scope()), qvec("the user plays chess on sundays"), 5))
    assert two.lexical(everything(scope()), query_terms("chess"), 5) == []
    one.forget_scope("acme", "alice")
    assert two.vector(everything(scope()), qvec("the project uses postgres"), 5) == []
    assert two.find(everything(scope())) == []


# ======================================================================================
# find / count with RecordFilter
# ======================================================================================
class TestFind:
    def test_statuses(self, store: Store) -> None:
        for st in Status:
            put(store, record(f"m-{st.value}", status=st))
        assert ids(store.find(RecordFilter(scope()))) == ["m-active"]
        assert store.count(RecordFilter(scope())) == 1
        assert len(store.find(everything(scope()))) == len(Status)
        assert store.count(everything(scope())) == len(Status)
        temporal = RecordFilter(scope(), statuses=TEMPORAL)
        assert set(ids(store.find(temporal))) == {"m-active", "m-superseded"}
        assert store.count(temporal) == 2
        none = RecordFilter(scope(), statuses=frozenset())
        assert store.find(none) == [] and store.count(none) == 0

    def test_types(self, store: Store) -> None:
        for t in MemoryType:
            put(store, record(f"m-{t.value}", type=t))
        f = RecordFilter(scope(), types=frozenset({MemoryType.DECISION, MemoryType.PROCEDURE}))
        assert set(ids(store.find(f))) == {"m-decision", "m-procedure"}
        assert store.count(f) == 2

    def test_subject_and_key(self, store: Store) -> None:
        put(
            store,
            record("a", subject="user", key="beverage"),
            record("b", subject="user", key="food"),
            record("c", subject="project:api", key="beverage"),
        )
        assert set(ids(store.find(RecordFilter(scope(), subject="user")))) == {"a", "b"}
        assert set(ids(store.find(RecordFilter(scope(), key="beverage")))) == {"a", "c"}
        f = RecordFilter(scope(), subject="user", key="beverage")
        assert ids(store.find(f)) == ["a"] and store.count(f) == 1

    def test_exact_scope(self, store: Store) -> None:
        put(
            store,
            record("user-level"),
            record("proj", sc=scope(project="web")),
            record("sess", sc=scope(project="web", session="s1")),
        )
        reader = scope(project="web", session="s1")
        assert set(ids(store.find(RecordFilter(reader)))) == {"user-level", "proj", "sess"}
        exact = {
            s: ids(store.find(RecordFilter(s, exact_scope=True)))
            for s in (scope(), scope(project="web"), reader, scope(project="other"))
        }
        assert list(exact.values()) == [["user-level"], ["proj"], ["sess"], []]
        assert store.count(RecordFilter(scope(project="web"), exact_scope=True)) == 1

    def test_validity_at(self, store: Store) -> None:
        put(
            store,
            record("always"),
            record("window", valid_from=at(hours=-1), valid_to=at(hours=1)),
            record("future", valid_from=at(hours=1)),
            record("past", valid_to=T0),
            record("ttl", expires_at=at(minutes=30)),
            record("expired", expires_at=T0),
        )

        def seen(when: datetime | None) -> set[str]:
            f = RecordFilter(scope(), at=when)
            found = set(ids(store.find(f)))
            assert store.count(f) == len(found)
            return found

        assert seen(T0) == {"always", "window", "ttl"}
        assert seen(at(hours=-1)) == {"always", "window", "past", "ttl", "expired"}
        assert seen(at(hours=1)) == {"always", "future"}  # valid_to and expires are exclusive
        assert seen(at(minutes=29)) == {"always", "window", "ttl"}
        assert seen(None) == {"always", "window", "future", "past", "ttl", "expired"}
        cst = T0.astimezone(timezone(timedelta(hours=8)))
        assert seen(cst) == seen(T0)

    def test_newest_first_and_limit(self, store: Store) -> None:
        put(
            store,
            record("old", updated_at=at(hours=-2)),
            record("new", updated_at=at(hours=2)),
            record("mid", updated_at=T0),
        )
        assert ids(store.find(RecordFilter(scope()))) == ["new", "mid", "old"]
        assert ids(store.find(RecordFilter(scope()), limit=2)) == ["new", "mid"]


# ======================================================================================
# scope isolation
# ======================================================================================
TEXT = "the user prefers window seats on long flights"


def views(store: Store, reader: Scope) -> dict[str, set[str]]:
    """What ``reader`` sees through each read path (every status, no validity filter)."""
    f = everything(reader)
    found = set(ids(store.find(f)))
    assert store.count(f) == len(found)
    return {
        "find": found,
        "lexical": set(hit_ids(store.lexical(f, query_terms("window seats"), 50))),
        "vector": set(hit_ids(store.vector(f, qvec(TEXT), 50))),
    }


def assert_sees(store: Store, reader: Scope, expected: set[str]) -> None:
    assert views(store, reader) == {"find": expected, "lexical": expected, "vector": expected}


class TestScopeIsolation:
    def test_users_never_see_each_other(self, store: Store) -> None:
        put(store, record("alice-1", TEXT, sc=scope("alice")), record("bob-1", TEXT, sc=scope("bob")))
        assert_sees(store, scope("alice"), {"alice-1"})
        assert_sees(store, scope("bob"), {"bob-1"})
        assert_sees(store, scope("carol"), set())

    def test_tenants_never_see_each_other(self, store: Store) -> None:
        put(store, record("t1", TEXT, sc=scope(tenant="t1")), record("t2", TEXT, sc=scope(tenant="t2")))
        assert_sees(store, scope(tenant="t1"), {"t1"})
        assert_sees(store, scope(tenant="t2", project="p"), {"t2"})
        assert_sees(store, scope(tenant="t3"), set())

    def test_project_bound(self, store: Store) -> None:
        put(store, record("shop", TEXT, sc=scope(project="shop")))
        assert_sees(store, scope(project="shop"), {"shop"})
        assert_sees(store, scope(project="shop", session="s9", agent="a1"), {"shop"})
        assert_sees(store, scope(project="admin"), set())
        assert_sees(store, scope(), set())
        assert_sees(store, scope("bob", project="shop"), set())

    def test_session_bound(self, store: Store) -> None:
        put(store, record("s1", TEXT, sc=scope(project="web", session="s1")))
        assert_sees(store, scope(project="web", session="s1"), {"s1"})
        assert_sees(store, scope(project="web", session="s2"), set())
        assert_sees(store, scope(project="web"), set())
        assert_sees(store, scope(session="s1"), set())  # bound to the project too
        assert_sees(store, scope(), set())

    def test_user_level_visible_everywhere_for_that_user(self, store: Store) -> None:
        put(store, record("pref", TEXT))
        for reader in (
            scope(),
            scope(project="a"),
            scope(project="b", session="s"),
            scope(agent="planner"),
            scope(agent="x", project="y", session="z"),
        ):
            assert_sees(store, reader, {"pref"})
        assert_sees(store, scope("bob"), set())

    def test_agent_bound(self, store: Store) -> None:
        put(store, record("note", TEXT, sc=scope(agent="planner")))
        assert_sees(store, scope(agent="planner"), {"note"})
        assert_sees(store, scope(agent="planner", project="web"), {"note"})
        assert_sees(store, scope(agent="coder"), set())
        assert_sees(store, scope(), set())
        assert_sees(store, scope(project="web"), set())

    def test_a_record_moved_to_another_user_leaves_the_first_user(self, store: Store) -> None:
        """Either the store refuses to move a record across users, or every leg follows it."""
        [rec] = put(store, record("m1", TEXT, sc=scope("alice")))
        assert_sees(store, scope("alice"), {"m1"})  # alice's read paths are warm now
        try:
            store.apply([update(rec, scope=scope("bob"))])
        except MemquillError:
            assert_sees(store, scope("alice"), {"m1"})
            return
        assert_sees(store, scope("alice"), set())
        assert_sees(store, scope("bob"), {"m1"})


# ======================================================================================
# lexical leg
# ======================================================================================
class TestLexical:
    def test_chinese(self, store: Store) -> None:
        put(
            store,
            record("coffee", "用户不喝咖啡", language="zh"),
            record("arch", "项目使用微服务架构，共40个服务", language="zh"),
        )
        f = RecordFilter(scope())
        hits = store.lexical(f, query_terms("咖啡"), 5)
        assert hit_ids(hits)[:1] == ["coffee"]
        assert "arch" not in hit_ids(hits)
        assert hit_ids(store.lexical(f, query_terms("微服务"), 5))[:1] == ["arch"]
        assert hit_ids(store.lexical(f, query_terms("用户喝什么"), 5))[:1] == ["coffee"]

    def test_english_stemming(self, store: Store) -> None:
        put(
            store,
            record("tea", "Alice likes to drink oolong tea"),
            record("deploy", "The service deployed to staging"),
        )
        f = RecordFilter(scope())
        assert hit_ids(store.lexical(f, query_terms("drinks"), 5)) == ["tea"]
        assert hit_ids(store.lexical(f, query_terms("deploying"), 5)) == ["deploy"]
        assert hit_ids(store.lexical(f, query_terms("DRINKING Oolong"), 5)) == ["tea"]

    def test_terms_rank_by_relevance_without_all_matching(self, store: Store) -> None:
        put(
            store,
            record("both", "espresso coffee beans daily"),
            record("one", "green tea leaves daily"),
            record("none", "deploy on friday afternoons"),
        )
        f = RecordFilter(scope())
        hits = store.lexical(f, query_terms("coffee espresso tea"), 10)
        assert hit_ids(hits) == ["both", "one"]
        scores = [s for _, s in hits]
        assert scores[0] > scores[1]
        assert store.lexical(f, [], 10) == []
        assert len(store.lexical(f, query_terms("daily"), 1)) == 1

    def test_filter_applies(self, store: Store) -> None:
        put(
            store,
            record("old", "the user drinks tea", status=Status.SUPERSEDED),
            record("proj", "the user drinks tea", sc=scope(project="p")),
            record("typed", "the user drinks tea", type=MemoryType.EPISODE),
        )
        terms = query_terms("tea")
        assert hit_ids(store.lexical(RecordFilter(scope()), terms, 10)) == ["typed"]
        f = RecordFilter(scope(project="p"), types=frozenset({MemoryType.PREFERENCE}))
        assert hit_ids(store.lexical(f, terms, 10)) == ["proj"]


# ======================================================================================
# vector leg
# ======================================================================================
class TestVector:
    def test_nearest_first(self, store: Store) -> None:
        texts = {
            "tea": "the user drinks green tea every morning",
            "chess": "the user plays chess on sundays",
            "db": "the project database is postgres",
        }
        put(store, *(record(k, v) for k, v in texts.items()))
        hits = store.vector(RecordFilter(scope()), qvec("the user drinks green tea every morning"), 3)
        assert hit_ids(hits)[0] == "tea"
        assert hits[0][1] == pytest.approx(1.0, abs=1e-4)
        scores = [s for _, s in hits]
        assert scores == sorted(scores, reverse=True)
        assert len(store.vector(RecordFilter(scope()), qvec("tea"), 2)) == 2

    def test_filter_before_ranking(self, store: Store) -> None:
        exact = "the user drinks green tea every morning"
        put(
            store,
            record("other-user", exact, sc=scope("bob")),
            record("other-project", exact, sc=scope(project="admin")),
            record("superseded", exact, status=Status.SUPERSEDED),
            record("other-type", exact, type=MemoryType.EPISODE),
            record("expired", exact, expires_at=at(minutes=-1)),
            record("keyed", exact, key="other"),
            record("far", "the project database is postgres"),
        )
        f = RecordFilter(
            scope(project="shop"), types=frozenset({MemoryType.PREFERENCE}), at=T0, key="beverage"
        )
        assert hit_ids(store.vector(f, qvec(exact), 1)) == ["far"]
        assert hit_ids(store.vector(f, qvec(exact), 10)) == ["far"]

    def test_embeddings_returns_stored_vectors(self, store: Store) -> None:
        put(store, record("a", "the user drinks green tea"), record("b", "chess on sundays"))
        put(store, record("plain", "no vector here"), embed=False)
        got = store.embeddings(["a", "b", "plain", "missing"])
        assert set(got) == {"a", "b"}
        np.testing.assert_allclose(got["a"], vec("the user drinks green tea"), rtol=1e-6)
        np.testing.assert_allclose(got["b"], vec("chess on sundays"), rtol=1e-6)
        assert got["a"].dtype == np.float32
        assert store.embeddings([]) == {}
        assert "plain" not in hit_ids(store.vector(RecordFilter(scope()), qvec("no vector"), 5))

    def test_embedding_of_the_wrong_dimension_is_rejected(self, make_store: MakeStore) -> None:
        small = make_store(dim=8)
        bad = Create(record("m1", "wrong size"), audit(), embedding=[0.5] * 4)
        with pytest.raises(MemquillError):
            small.apply([create(record("m0", "fine"), embed=False), bad])
        assert small.get("m1") is None and small.get("m0") is None

    def test_query_of_the_wrong_dimension_is_a_typed_error(self, make_store: MakeStore) -> None:
        small = make_store(dim=8)
        small.apply([Create(record("m1", "ok"), audit(), embedding=[0.5] * 8)])
        with pytest.raises(MemquillError):
            small.vector(RecordFilter(scope()), np.ones(4, dtype=np.float32), 5)

    def test_update_with_embedding_moves_the_vector(self, store: Store) -> None:
        [rec] = put(store, record("m1", "the user drinks green tea"))
        put(store, record("m2", "the user plays chess on sundays"))
        f = RecordFilter(scope())
        store.apply([update(rec, content="the user plays go on sundays", embed=True)])
        np.testing.assert_allclose(
            store.embeddings(["m1"])["m1"], vec("the user plays go on sundays"), rtol=1e-6
        )
        assert hit_ids(store.vector(f, qvec("the user plays go on sundays"), 1)) == ["m1"]


# ======================================================================================
# jobs
# ======================================================================================
class TestJobs:
    def test_enqueue_is_idempotent_on_key(self, store: Store) -> None:
        assert store.enqueue([job("k1"), job("k2")]) == 2
        assert store.enqueue([job("k1", payload={"other": 1}), job("k3")]) == 1
        assert store.enqueue([]) == 0
        assert store.job_counts() == {JobStatus.QUEUED: 3}

    def test_claim_leases_due_jobs_only(self, store: Store) -> None:
        store.enqueue([job("due", run_after=T0), job("later", run_after=at(hours=1))])
        [j] = store.claim("w1", T0, 60, 10)
        assert (j.key, j.status, j.attempts) == ("due", JobStatus.RUNNING, 1)
        assert j.id is not None and j.payload == {"key": "due"}
        assert j.scope == scope()
        assert j.lease_until == at(seconds=60)
        assert store.claim("w2", at(seconds=30), 60, 10) == []  # leased, "later" not due
        assert store.job_counts() == {JobStatus.QUEUED: 1, JobStatus.RUNNING: 1}
        later = store.claim("w2", at(hours=1), 60, 10)
        assert sorted(x.key for x in later) == ["due", "later"]  # due's lease expired

    def test_claim_respects_limit_and_kinds(self, store: Store) -> None:
        store.enqueue(
            [job(f"x{i}", "extract", run_after=at(seconds=i)) for i in range(4)]
            + [job("s1", "session_end", run_after=at(seconds=10))]
        )
        got = store.claim("w", at(minutes=1), 60, 2)
        assert len(got) == 2
        assert [j.key for j in store.claim("w", at(minutes=1), 60, 10, kinds=["session_end"])] == ["s1"]
        assert store.claim("w", at(minutes=1), 60, 10, kinds=["nope"]) == []
        rest = store.claim("w", at(minutes=1), 60, 10, kinds=["extract", "session_end"])
        assert len(rest) == 2 and {j.kind for j in rest} == {"extract"}
        assert store.job_counts() == {JobStatus.RUNNING: 5}

    def test_expired_lease_is_reclaimed_and_only_the_holder_finishes(self, store: Store) -> None:
        store.enqueue([job("k")])
        [first] = store.claim("w1", T0, 30, 1)
        assert store.claim("w2", at(seconds=10), 30, 1) == []
        [second] = store.claim("w2", at(seconds=31), 30, 1)
        assert second.id == first.id and second.attempts == 2
        assert first.id is not None
        store.finish(first.id, "w1", at(seconds=32))  # w1 lost its lease: no effect
        assert store.job_counts() == {JobStatus.RUNNING: 1}
        store.finish(first.id, "w2", at(seconds=33))
        assert store.job_counts() == {JobStatus.DONE: 1}
        assert store.claim("w3", at(days=1), 30, 1) == []

    def test_fail_with_retry_requeues(self, store: Store) -> None:
        store.enqueue([job("k")])
        [j] = store.claim("w1", T0, 30, 1)
        assert j.id is not None
        store.fail(j.id, "intruder", "not mine", None, at(seconds=1))  # not the holder: no effect
        assert store.job_counts() == {JobStatus.RUNNING: 1}
        store.fail(j.id, "w1", "boom", at(minutes=5), at(seconds=2))
        assert store.job_counts() == {JobStatus.QUEUED: 1}
        assert store.claim("w1", at(minutes=4), 30, 1) == []
        [again] = store.claim("w2", at(minutes=5), 30, 1)
        assert (again.attempts, again.last_error) == (2, "boom")

    def test_a_finished_job_cannot_be_revived_by_fail(self, store: Store) -> None:
        store.enqueue([job("k")])
        [j] = store.claim("w1", T0, 30, 1)
        assert j.id is not None
        store.finish(j.id, "w1", at(seconds=1))
        store.fail(j.id, "w1", "late error", at(minutes=1), at(seconds=2))
        assert store.job_counts() == {JobStatus.DONE: 1}
        assert store.claim("w2", at(minutes=2), 30, 1) == []

    def test_fail_without_retry_dead_letters(self, store: Store) -> None:
        store.enqueue([job("k")])
        [j] = store.claim("w1", T0, 30, 1)
        assert j.id is not None
        store.fail(j.id, "w1", "fatal: bad payload", None, at(seconds=1))
        assert store.job_counts() == {JobStatus.DEAD: 1}
        assert store.claim("w1", at(days=7), 30, 10) == []

    def test_job_counts_by_scope(self, store: Store) -> None:
        store.enqueue(
            [
                job("a1", sc=scope("alice")),
                job("a2", sc=scope("alice", project="p")),
                job("b1", sc=scope("bob")),
            ]
        )
        store.claim("w", T0, 30, 1, kinds=["extract"])
        assert sum(store.job_counts(scope("alice")).values()) == 2
        assert store.job_counts(scope("bob")) in ({JobStatus.QUEUED: 1}, {JobStatus.RUNNING: 1})
        assert store.job_counts(scope("carol")) == {}
        assert sum(store.job_counts().values()) == 3


# ======================================================================================
# erasure, access log
# ======================================================================================
def populate(store: Store, user: str, tenant: str = "acme") -> dict[str, int]:
    """Events, jobs, records with history and an access of one user; their snapshot."""
    sc, us, p = scope(user, tenant=tenant, session="s1"), scope(user, tenant=tenant), f"{tenant}-{user}"
    store.append_event(event(f"{user}-e1", f"{user} drinks tea", sc=sc), [job(f"{p}-j1", sc=sc)])
    store.append_event(event(f"{user}-e2", f"{user} plays chess", sc=sc))
    [rec] = put(store, record(f"{p}-m1", "the user drinks green tea", sc=us))
    put(store, record(f"{p}-m2", "the user plays chess on sundays", sc=us))
    store.apply([update(rec, content="the user drinks black tea", embed=True)])
    store.log_access([Access(f"{p}-m1", us, "tea", 1, 0.9, T0)])
    return snapshot(store, user, tenant)


def snapshot(store: Store, user: str, tenant: str = "acme") -> dict[str, int]:
    us = scope(user, tenant=tenant)
    f = everything(us)
    return {
        "records": store.count(f),
        "revisions": sum(len(store.history(r.id)) for r in store.find(f)),
        "events": len(store.session_events(us, "s1")),
        "jobs": sum(store.job_counts(us).values()),
        "lexical": len(store.lexical(f, query_terms("tea chess"), 10)),
        "vector": len(store.vector(f, qvec("the user drinks black tea"), 10)),
    }


def test_forget_scope_erases_one_user_only(store: Store) -> None:
    full = populate(store, "alice")
    assert min(full.values()) > 0
    bob = populate(store, "bob")
    twin = populate(store, "alice", tenant="other")  # same user name, another tenant
    counts = store.forget_scope("acme", "alice")
    assert sum(counts.values()) > 0
    assert snapshot(store, "alice") == dict.fromkeys(full, 0)
    assert store.get("acme-alice-m1") is None and store.history("acme-alice-m1") == []
    assert store.get_events(scope("alice"), ["alice-e1", "alice-e2"]) == []
    assert snapshot(store, "bob") == bob
    assert snapshot(store, "alice", tenant="other") == twin
    # the erased user can start again from scratch
    _, created = store.append_event(event("alice-e1", "alice drinks tea"))
    assert created


def test_forget_scope_erases_the_access_log(make_store: MakeStore, backend: str, tmp_path: Path) -> None:
    sqlite_only(backend)  # the Protocol has no reader for the access log
    path = str(tmp_path / "log.db")
    store = make_store(path)
    populate(store, "alice")
    populate(store, "bob")

    def logged() -> dict[str, int]:
        with sqlite3.connect(path) as db:
            rows = db.execute("SELECT user_id, COUNT(*) FROM access_log GROUP BY user_id")
            return dict(rows.fetchall())

    assert logged() == {"alice": 1, "bob": 1}
    store.forget_scope("acme", "alice")
    assert logged() == {"bob": 1}


def test_log_access_accepts_entries(store: Store) -> None:
    put(store, record("m1"))
    store.log_access([])
    store.log_access(
        [
            Access("m1", scope(project="p"), "tea?", 1, 0.5, T0),
            Access("gone", scope(), "沒有", 2, 0.1, T0.astimezone(UTC)),
        ]
    )
    assert store.get("m1") is not None


# ======================================================================================
# maintenance reads: owner filter, touch, tally, pending events, core blocks
# ======================================================================================
def test_owner_filter_sees_every_binding_of_one_user(store: Store) -> None:
    put(
        store,
        record("u", TEXT),
        record("p", TEXT, sc=scope(project="p")),
        record("s", TEXT, sc=scope(project="p", session="s")),
        record("a", TEXT, sc=scope(agent="x")),
        record("bob", TEXT, sc=scope("bob")),
        record("t2", TEXT, sc=scope(tenant="t2")),
    )
    owner = RecordFilter(scope(project="other"), statuses=None, owner=True)
    assert set(ids(store.find(owner))) == {"u", "p", "s", "a"}
    assert store.count(owner) == 4
    assert set(hit_ids(store.vector(owner, qvec(TEXT), 10))) == {"u", "p", "s", "a"}
    assert set(hit_ids(store.lexical(owner, query_terms("window"), 10))) == {"u", "p", "s", "a"}


def test_touch_counts_reads_without_a_revision(store: Store) -> None:
    put(store, record("m1"), record("m2"))
    store.touch(["m1"], at(hours=1))
    store.touch(["m1", "missing"], at(hours=2))
    store.touch([], at(hours=3))
    got = store.get("m1")
    assert got is not None
    assert got.access_count == 2 and got.last_accessed_at == at(hours=2)
    assert got.revision == 1 and len(store.history("m1")) == 1
    other = store.get("m2")
    assert other is not None and other.access_count == 0 and other.last_accessed_at is None


def test_tally_counts_one_user(store: Store) -> None:
    put(
        store,
        record("a"),
        record("b", type=MemoryType.FACT),
        record("c", status=Status.SUPERSEDED, useful_count=3),
        record("bob", sc=scope("bob")),
    )
    store.append_event(event("e1", minutes=0), [job("j1")])
    store.append_event(event("e2", minutes=1))
    store.append_event(event("e3", sc=scope("bob", session="s1")))
    store.log_access([Access("a", scope(), "q", 1, 0.5, T0)])
    t = store.tally("acme", "alice")
    assert t.records == {"active": {"preference": 1, "fact": 1}, "superseded": {"preference": 1}}
    assert (t.events, t.accesses, t.useful) == (2, 1, 3)
    assert t.jobs == {JobStatus.QUEUED: 1}


def test_pending_events_until_their_extract_job_is_done(store: Store) -> None:
    from memquill.maintain.jobs import extract_job

    sc = scope(session="s1")
    for i in (1, 2):
        store.append_event(
            event(f"e{i}", f"turn {i}", sc=sc, minutes=i), [extract_job(f"e{i}", sc, None, T0)]
        )
    store.append_event(event("e3", "no job", sc=sc))
    store.append_event(
        event("b1", "bob", sc=scope("bob", session="s1")),
        [extract_job("b1", scope("bob", session="s1"), None, T0)],
    )
    assert [e.id for e in store.pending_events(sc, "s1")] == ["e1", "e2"]
    assert [e.id for e in store.pending_events(sc, "s1", limit=1)] == ["e2"]  # the latest
    claimed = store.claim("w", T0, 60, 10)
    first = next(j for j in claimed if j.payload["event_id"] == "e1")
    assert first.id is not None
    store.finish(first.id, "w", T0)
    assert [e.id for e in store.pending_events(sc, "s1")] == ["e2"]
    assert store.pending_events(sc, "s2") == []


def test_core_blocks_shared_and_private(store: Store) -> None:
    from memquill.model.block import CoreBlock

    def block(name: str, content: str, agent: str | None = None, read_only: bool = False) -> CoreBlock:
        return CoreBlock(
            tenant="acme",
            user="alice",
            agent=agent,
            name=name,
            content=content,
            read_only=read_only,
            updated_at=T0,
        )

    store.put_block(block("profile", "Alice, backend engineer"))
    store.put_block(block("persona", "terse planner", agent="planner", read_only=True))
    store.put_block(block("persona", "chatty coder", agent="coder"))
    store.put_block(block("profile", "Alice, staff engineer"))  # upsert
    store.put_block(CoreBlock(tenant="acme", user="bob", name="profile", content="Bob", updated_at=T0))
    shared = store.blocks(scope())
    assert [(b.name, b.content) for b in shared] == [("profile", "Alice, staff engineer")]
    planner = store.blocks(scope(agent="planner"))
    assert [(b.name, b.agent, b.read_only) for b in planner] == [
        ("persona", "planner", True),
        ("profile", None, False),
    ]
    assert all(b.updated_at == T0 for b in planner)
    store.forget_scope("acme", "alice")
    assert store.blocks(scope(agent="planner")) == []
    assert [b.content for b in store.blocks(scope("bob"))] == ["Bob"]
