"""The reconcile decision as data: one row per rule of DESIGN §4 (rules 5–7), no database.

Each row is a proposal, the view a loader would have read, and the expected decision: its
op, its reason and what happens to the records involved.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import pytest

from memquill.audit import ReviewItem, decide_review
from memquill.errors import ValidationError
from memquill.model import (
    Candidate,
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
from memquill.providers.base import Vector
from memquill.write.reconcile import Decision, Near, Op, Policy, Proposal, View, decide, needs_near

NOW = datetime.fromisoformat("2026-11-29T10:00:00+00:00")
DAY = timedelta(days=1)
SCOPE = Scope(user="alice")
UNIT = np.array([1.0, 0.0], dtype=np.float32)
ORTHOGONAL = np.array([0.0, 1.0], dtype=np.float32)


def cand(**kw: Any) -> Candidate:
    base: dict[str, Any] = {
        "type": MemoryType.PREFERENCE,
        "subject": "user",
        "key": "beverage",
        "value": "tea",
        "content": "The user drinks tea",
        "confidence": 0.9,
        "source": Source.EXPLICIT,
        "evidence": ["evt-new"],
        "observed_at": NOW,
    }
    return Candidate(**(base | kw))


def rec(id: str, **kw: Any) -> MemoryRecord:
    base: dict[str, Any] = {
        "id": id,
        "type": MemoryType.PREFERENCE,
        "scope": SCOPE,
        "subject": "user",
        "key": "beverage",
        "value": "coffee",
        "content": "The user drinks coffee",
        "confidence": 0.9,
        "source": Source.EXPLICIT,
        "evidence": [f"evt-{id}"],
        "observed_at": NOW - 10 * DAY,
        "created_at": NOW - 10 * DAY,
        "updated_at": NOW - 10 * DAY,
    }
    return MemoryRecord(**(base | kw))


def synonyms(key: str, a: str, b: str) -> bool:
    """A stand-in for a cross-language value lookup."""
    same = {"coffee": "coffee", "咖啡": "coffee", "tea": "tea", "茶": "tea"}
    return same.get(a.casefold(), a.casefold()) == same.get(b.casefold(), b.casefold())


@dataclass
class Row:
    name: str
    candidate: Candidate
    op: Op
    reason: str
    slot: tuple[MemoryRecord, ...] = ()
    near: tuple[Near, ...] = ()
    chain: dict[str, MemoryRecord] = field(default_factory=dict)
    policy: Policy = field(default_factory=Policy)
    check: Callable[[Decision], None] = lambda d: None


def created(d: Decision) -> MemoryRecord:
    return next(c.record for c in d.changes if isinstance(c, Create))


def updated(d: Decision, memory_id: str) -> MemoryRecord:
    return next(c.record for c in d.changes if isinstance(c, Update) and c.record.id == memory_id)


def ops(d: Decision) -> list[RevisionOp]:
    return [c.audit.op for c in d.changes if isinstance(c, Create | Update)]


def created_as(status: Status) -> Callable[[Decision], None]:
    def check(d: Decision) -> None:
        assert created(d).status is status
        assert len([c for c in d.changes if isinstance(c, Create)]) == 1

    return check


def merged(op: RevisionOp, status: Status) -> Callable[[Decision], None]:
    def check(d: Decision) -> None:
        after = updated(d, "old")
        assert ops(d) == [op] and after.status is status and after.revision == 2
        assert after.evidence == ["evt-old", "evt-new"]

    return check


def superseded(d: Decision) -> None:
    old, new = updated(d, "old"), created(d)
    assert old.status is Status.SUPERSEDED and old.valid_to == NOW and old.superseded_by == new.id
    assert new.supersedes == "old" and new.valid_from == NOW and new.status is Status.ACTIVE


def flagged(d: Decision) -> None:
    new, old = created(d), updated(d, "old")
    assert new.status is Status.NEEDS_REVIEW and new.conflicts_with == ["old"]
    assert old.conflicts_with == [new.id] and old.status is Status.ACTIVE and old.value == "coffee"


def invalidated(valid_to: datetime | None) -> Callable[[Decision], None]:
    def check(d: Decision) -> None:
        old, new = updated(d, "old"), created(d)
        assert old.status is Status.INVALIDATED and old.valid_to == valid_to
        assert old.superseded_by == new.id and new.supersedes == "old"

    return check


def ended_at(valid_to: datetime) -> Callable[[Decision], None]:
    def check(d: Decision) -> None:
        old = updated(d, "old")
        assert old.status is Status.INVALIDATED and old.valid_to == valid_to and old.superseded_by is None
        assert not [c for c in d.changes if isinstance(c, Create)]

    return check


def history_between(d: Decision) -> None:
    """Said late: 'old' (−10d) ← new (−5d) ← 'cur' (now−1d) with the chain relinked."""
    new = created(d)
    assert new.status is Status.SUPERSEDED and new.valid_from == NOW - 5 * DAY
    assert (new.supersedes, new.superseded_by) == ("old", "cur")
    assert new.valid_to == NOW - DAY
    assert updated(d, "cur").supersedes == new.id
    assert updated(d, "old").superseded_by == new.id and updated(d, "old").valid_to == NOW - 5 * DAY


def history_first(d: Decision) -> None:
    new = created(d)
    assert new.supersedes is None and new.superseded_by == "old"
    assert updated(d, "old").supersedes == new.id
    assert len(d.changes) == 3  # guard, create, relink: no predecessor to touch


def evidence_is(memory_id: str, ids: list[str]) -> Callable[[Decision], None]:
    def check(d: Decision) -> None:
        assert updated(d, memory_id).evidence == ids

    return check


def writes_nothing(d: Decision) -> None:
    assert d.changes == ()


def guarded(open_ids: set[str]) -> Callable[[Decision], None]:
    def check(d: Decision) -> None:
        guard = d.changes[0]
        assert isinstance(guard, SlotGuard) and guard.open_ids == frozenset(open_ids)

    return check


OLD = rec("old")
OLDER_NOTE = rec(
    "note",
    type=MemoryType.FACT,
    key="note:build-cache",
    value=None,
    content="The build cache lives in /var/cache/b1",
)
NOTE = {"type": MemoryType.FACT, "key": "note:cache-dir", "value": None}

# fmt: off
ROWS = [
    Row("empty slot: new information is added", cand(), Op.ADD, "new information",
        check=created_as(Status.ACTIVE)),
    Row("below the confidence floor: only a candidate", cand(confidence=0.5), Op.ADD,
        "new information", check=created_as(Status.CANDIDATE)),
    Row("external content only creates candidates", cand(source=Source.EXTERNAL), Op.ADD,
        "new information", check=created_as(Status.CANDIDATE)),
    Row("awaiting confirmation: a candidate", cand(attributes={"needs_confirmation": True}),
        Op.ADD, "new information", check=created_as(Status.CANDIDATE)),
    Row("same slot, same value: evidence merged", cand(value="Coffee", content="用户喝咖啡"),
        Op.NOOP, "evidence merged", slot=(OLD,), check=merged(RevisionOp.MERGE, Status.ACTIVE)),
    Row("re-run of the same evidence writes nothing", cand(evidence=["evt-old"]), Op.NOOP,
        "already recorded from this evidence", slot=(OLD,), check=writes_nothing),
    Row("re-run after the record was superseded still writes nothing",
        cand(evidence=["evt-old"], value="coffee"), Op.NOOP, "already recorded",
        slot=(rec("old", status=Status.SUPERSEDED), rec("cur", evidence=["evt-x"])),
        check=writes_nothing),
    Row("an archived memory said again is reactivated", cand(value="coffee"), Op.NOOP,
        "reactivated", slot=(rec("old", status=Status.ARCHIVED),),
        check=merged(RevisionOp.REACTIVATE, Status.ACTIVE)),
    Row("a recurring candidate is promoted", cand(value="coffee"), Op.NOOP, "promoted",
        slot=(rec("old", status=Status.CANDIDATE),),
        check=merged(RevisionOp.PROMOTE, Status.ACTIVE)),
    Row("external recurrence does not promote", cand(value="coffee", source=Source.EXTERNAL),
        Op.NOOP, "evidence merged", slot=(rec("old", status=Status.CANDIDATE),),
        check=merged(RevisionOp.MERGE, Status.CANDIDATE)),
    Row("a read-only memory is never changed automatically", cand(), Op.FLAG, "read-only",
        slot=(rec("old", read_only=True),), check=flagged),
    Row("a lower-trust source never overwrites an active record", cand(source=Source.INFERRED),
        Op.FLAG, "inferred source may not overwrite explicit memory", slot=(OLD,), check=flagged),
    Row("external content cannot replace memory", cand(source=Source.EXTERNAL), Op.FLAG,
        "external content cannot replace memory", slot=(rec("old", source=Source.EXTERNAL),),
        check=flagged),
    Row("same slot, new value: supersede", cand(), Op.UPDATE, "same slot, new value (was: coffee)",
        slot=(OLD,), check=superseded),
    Row("a negation of the same value supersedes too",
        cand(value="coffee", polarity=Polarity.NEGATIVE, content="The user does not drink coffee"),
        Op.UPDATE, "same slot, new value", slot=(OLD,)),
    Row("a correction invalidates: the old value never held", cand(attributes={"correction": True}),
        Op.INVALIDATE, "corrected by the user", slot=(rec("old", valid_from=NOW - 9 * DAY),),
        check=invalidated(NOW - 9 * DAY)),
    Row("an ended value is invalidated from then on, and nothing new is written",
        cand(value="coffee", attributes={"ends": True}), Op.INVALIDATE, "ended by the user",
        slot=(OLD,), check=ended_at(NOW)),
    Row("a late older value is inserted into the chain as history",
        cand(observed_at=NOW - 5 * DAY), Op.ADD, "older value of this slot, kept as history",
        slot=(rec("cur", value="milk", supersedes="old", observed_at=NOW - DAY),),
        chain={"old": rec("old", status=Status.SUPERSEDED, superseded_by="cur")},
        check=history_between),
    Row("a value older than the whole chain goes first", cand(valid_from=NOW - 20 * DAY),
        Op.ADD, "kept as history", slot=(OLD,), check=history_first),
    Row("different conditions: both stay",
        cand(conditions=["在出差的时候"], content="出差时用户喝茶"), Op.ADD, "new information",
        slot=(OLD,), check=created_as(Status.ACTIVE)),
    Row("the slot guard names the open records it decided on", cand(), Op.UPDATE, "new value",
        slot=(OLD, rec("gone", status=Status.SUPERSEDED, evidence=["evt-g"])),
        check=guarded({"old"})),
    Row("identical statement in the scope: near-duplicate",
        cand(content="The build cache lives in /var/cache/b1", **NOTE), Op.NOOP, "near-duplicate",
        near=(Near(OLDER_NOTE, ORTHOGONAL),),
        check=lambda d: assert_evidence(d, "note")),
    Row("close wording the embedding confirms: near-duplicate",
        cand(content="the build cache lives in /var/cache/b1 now", **NOTE), Op.NOOP,
        "near-duplicate", near=(Near(OLDER_NOTE, UNIT),)),
    Row("close wording the embedding rejects: new",
        cand(content="the build cache lives in /var/cache/b1 now", **NOTE), Op.ADD,
        "new information", near=(Near(OLDER_NOTE, ORTHOGONAL),)),
    Row("a different number is a different fact",
        cand(content="The build cache is 80 GB", **NOTE), Op.ADD, "new information",
        near=(Near(OLDER_NOTE.model_copy(update={"content": "The build cache is 40 GB"}), UNIT),)),
    Row("task outcomes are never merged",
        cand(type=MemoryType.TASK_OUTCOME, key="task:deploy", value=None,
             content="Deployed the API"), Op.ADD, "new information",
        near=(Near(rec("done", type=MemoryType.TASK_OUTCOME, key="task:deploy", value=None,
                       content="Deployed the API"), UNIT),)),
    Row("temporary notes skip the slot guard", cand(type=MemoryType.TEMPORARY, key="temp:x"),
        Op.ADD, "new information", check=lambda d: assert_no_guard(d)),
    Row("a multi-valued attribute keeps both values", cand(key="language", value="中文"),
        Op.ADD, "new information", slot=(rec("old", key="language", value="English"),),
        policy=Policy(multi_valued=lambda key: key == "language"),
        check=created_as(Status.ACTIVE)),
    Row("a multi-valued attribute still merges the same value",
        cand(key="language", value="english"), Op.NOOP, "evidence merged",
        slot=(rec("old", key="language", value="English"),),
        policy=Policy(multi_valued=lambda key: key == "language")),
    Row("the same value in another language is the same value", cand(value="咖啡"), Op.NOOP,
        "evidence merged", slot=(OLD,), policy=Policy(same_value=synonyms)),
    # the catalogue policy (the default): cardinality and value normalisation per attribute
    Row("catalogue: tea said as 茶 is a restatement", cand(value="茶", content="用户爱喝茶"),
        Op.NOOP, "evidence merged", slot=(rec("old", value="tea"),)),
    Row("catalogue: Postgres restates PostgreSQL", cand(type=MemoryType.FACT, subject="project",
        key="stack:database", value="Postgres"), Op.NOOP, "evidence merged",
        slot=(rec("old", type=MemoryType.FACT, subject="project", key="stack:database",
                  value="PostgreSQL"),)),
    Row("catalogue: a single-valued city supersedes", cand(type=MemoryType.FACT, key="city",
        value="杭州"), Op.UPDATE, "new value", slot=(rec("old", key="city", value="上海"),)),
    Row("catalogue: a second allergy is added, not a change", cand(type=MemoryType.FACT,
        key="allergy", value="海鲜"), Op.ADD, "new information",
        slot=(rec("old", key="allergy", value="peanuts"),), check=created_as(Status.ACTIVE)),
    Row("catalogue: a phone replaces the phone (a kind holds one value)", cand(type=MemoryType.FACT,
        key="device", value="小米14", content="用户手机坏了，直接买了个小米14"), Op.UPDATE, "new value",
        slot=(rec("old", key="device", value="iPhone 12", content="用户这台iPhone 12电池不行了"),)),
    Row("catalogue: a laptop beside the phone is added", cand(type=MemoryType.FACT, key="device",
        value="ThinkPad X1", content="The user got a ThinkPad X1 for work"), Op.ADD, "new information",
        slot=(rec("old", key="device", value="Pixel 8", content="The user's phone is a Pixel 8"),),
        check=created_as(Status.ACTIVE)),
    Row("catalogue: a second phone said so is added", cand(type=MemoryType.FACT, key="device",
        value="iPhone 15", content="The user also carries an iPhone 15 for work calls"), Op.ADD,
        "new information", slot=(rec("old", key="device", value="Pixel 8",
                                     content="The user's phone is a Pixel 8"),),
        check=created_as(Status.ACTIVE)),
    Row("catalogue: a bicycle beside the car is added", cand(type=MemoryType.FACT, key="vehicle",
        value="车", content="用户最近又买了辆公路车"), Op.ADD, "new information",
        slot=(rec("old", key="vehicle", value="卡罗拉", content="用户开的车是卡罗拉"),),
        check=created_as(Status.ACTIVE)),
    Row("catalogue: negating one value of a multi-valued attribute replaces it",
        cand(key="hobby", value="徒步", polarity=Polarity.NEGATIVE), Op.UPDATE, "new value",
        slot=(rec("old", key="hobby", value="hiking"),)),
    Row("a negative about another value does not replace the positive",
        cand(value="milk", polarity=Polarity.NEGATIVE, content="The user does not drink milk"),
        Op.ADD, "new information", slot=(OLD,), check=created_as(Status.ACTIVE)),
    Row("a positive next to a negative of another value: both stay", cand(value="tea"), Op.ADD,
        "new information", slot=(rec("old", polarity=Polarity.NEGATIVE),),
        check=created_as(Status.ACTIVE)),
    # knowledge updates: cardinality decides, not change words
    Row("catalogue: a value said in the present, no change word, supersedes (single)",
        cand(type=MemoryType.FACT, key="shell", value="fish", content="The user is on fish now"),
        Op.UPDATE, "same slot, new value (was: bash)",
        slot=(rec("old", type=MemoryType.FACT, key="shell", value="bash"),), check=superseded),
    Row("catalogue: a cued model change supersedes like a rule's",
        cand(key="beverage", value="乌龙茶", confidence=0.65, attributes={"change": "new"},
             rule="model:attribute-model@1 (p=0.65)", content="用户咖啡先戒了，改喝乌龙茶"),
        Op.UPDATE, "same slot, new value (was: coffee)", slot=(OLD,), check=superseded),
    Row("catalogue: the same city in the other script is a restatement",
        cand(type=MemoryType.FACT, key="city", value="Beijing", content="The user lives in Beijing"),
        Op.NOOP, "evidence merged", slot=(rec("old", type=MemoryType.FACT, key="city", value="北京"),)),
    Row("a guess below the floor never replaces an active value: kept for review",
        cand(value="expensive", confidence=0.3), Op.FLAG,
        "an unconfirmed claim may not replace an active value", slot=(OLD,), check=flagged),
    Row("a present statement below the floor replaces the active value (no change cue needed)",
        cand(confidence=0.45, attributes={"present": True}), Op.UPDATE,
        "said as the present, without a change cue", slot=(OLD,), check=superseded),
    Row("a present statement still waits when it awaits confirmation",
        cand(confidence=0.45, attributes={"present": True, "needs_confirmation": True}), Op.FLAG,
        "unconfirmed", slot=(OLD,), check=flagged),
    Row("a present statement from external content still waits",
        cand(confidence=0.45, source=Source.EXTERNAL, attributes={"present": True}), Op.FLAG,
        "may not overwrite", slot=(OLD,), check=flagged),
    Row("a claim awaiting confirmation never replaces an active value",
        cand(attributes={"needs_confirmation": True}), Op.FLAG, "unconfirmed claim", slot=(OLD,),
        check=flagged),
    Row("a confident value replaces an unconfirmed candidate",
        cand(), Op.UPDATE, "same slot, new value", slot=(rec("old", status=Status.CANDIDATE),)),
    Row("the same passage cut into another window: one episode (windows of a session differ "
        "when its end is processed twice, e.g. after a worker is killed)",
        cand(type=MemoryType.EPISODE, subject="conversation", key="episode:evt-b", value=None,
             content="We decided to go with React instead of Vue", evidence=["evt-b", "evt-c"]),
        Op.NOOP, "near-duplicate",
        near=(Near(rec("ep", type=MemoryType.EPISODE, subject="conversation", key="episode:evt-a",
                       value=None, content="We decided to go with React instead of Vue",
                       evidence=["evt-a", "evt-b"]), ORTHOGONAL),),
        check=evidence_is("ep", ["evt-a", "evt-b", "evt-c"])),
    Row("one clause refusing one value and stating another: the second is no re-run",
        cand(evidence=["evt-old"], value="普洱", content="用户不喝咖啡，一般都喝普洱"), Op.ADD,
        "new information", slot=(rec("old", value="咖啡", polarity=Polarity.NEGATIVE),),
        check=created_as(Status.ACTIVE)),
    Row("a re-run of that clause writes nothing: each value finds its own record",
        cand(evidence=["evt-old"], value="普洱", content="用户不喝咖啡，一般都喝普洱"), Op.NOOP,
        "already recorded from this evidence",
        slot=(rec("old", value="咖啡", polarity=Polarity.NEGATIVE), rec("tea", value="普洱", evidence=["evt-old"])),
        check=writes_nothing),
    Row("an ending of a value not held writes nothing",
        cand(value="coffee", attributes={"ends": True}), Op.NOOP, "nothing held to end",
        slot=(rec("old", value="tea"),), check=writes_nothing),
]
# fmt: on


def assert_evidence(d: Decision, memory_id: str) -> None:
    assert updated(d, memory_id).evidence == [f"evt-{memory_id}", "evt-new"]


def assert_no_guard(d: Decision) -> None:
    assert d.changes and not any(isinstance(c, SlotGuard) for c in d.changes)


class CountingEmbed:
    def __init__(self, vec: Vector | None = UNIT) -> None:
        self.vec, self.calls = vec, 0

    def __call__(self) -> Vector | None:
        self.calls += 1
        return self.vec


def run(row: Row, embed: CountingEmbed | None = None) -> Decision:
    counter = itertools.count()
    proposal = Proposal(row.candidate, SCOPE, NOW, "alice", new_id=lambda: f"mem-{next(counter)}")
    view = View(slot=row.slot, near=row.near, chain=row.chain)
    return decide(proposal, view, row.policy, embed or CountingEmbed())


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_rule(row: Row) -> None:
    d = run(row)
    assert d.op is row.op, d.reason
    assert row.reason in d.reason
    row.check(d)
    writes = [c for c in d.changes if not isinstance(c, SlotGuard)]
    assert all(
        isinstance(c, Update) and c.record.revision == c.expected_revision + 1
        for c in writes
        if isinstance(c, Update)
    )
    if d.changes and row.candidate.type is not MemoryType.TEMPORARY:
        assert isinstance(d.changes[0], SlotGuard)


def test_the_table_covers_every_outcome() -> None:
    assert {r.op for r in ROWS} == set(Op)
    assert len(ROWS) >= 15


def test_merging_evidence_never_pays_for_the_model() -> None:
    embed = CountingEmbed()
    run(ROWS[4], embed)
    assert embed.calls == 0


def test_a_new_record_carries_its_embedding() -> None:
    d = run(ROWS[0], CountingEmbed(np.array([0.6, 0.8], dtype=np.float32)))
    create = next(c for c in d.changes if isinstance(c, Create))
    assert create.embedding == pytest.approx([0.6, 0.8])


def test_without_an_embedder_close_wording_alone_decides() -> None:
    row = ROWS[23]  # the embedding would reject it
    assert run(row, CountingEmbed(None)).op is Op.NOOP


def test_decide_does_not_change_the_view() -> None:
    before = OLD.model_copy(deep=True)
    run(ROWS[13])
    assert before == OLD


# --- the human review decision -------------------------------------------------------------
def _review(action: Any) -> tuple[MemoryRecord, MemoryRecord, list[Any]]:
    flagged_rec = rec("new", status=Status.NEEDS_REVIEW, value="tea", conflicts_with=["old"])
    old = rec("old", conflicts_with=["new"])
    changes = decide_review(
        ReviewItem(memory=flagged_rec, conflicts_with=[old]), action, "alice", "moved", NOW
    )
    by_id = {c.record.id: c.record for c in changes if isinstance(c, Update)}
    return by_id["new"], by_id["old"], changes


def test_review_accept_supersedes_the_active_conflict() -> None:
    new, old, _ = _review("accept")
    assert new.status is Status.ACTIVE and new.supersedes == "old" and new.conflicts_with == []
    assert old.status is Status.SUPERSEDED and old.superseded_by == "new" and old.valid_to == NOW


def test_review_reject_invalidates_and_unlinks() -> None:
    new, old, _ = _review("reject")
    assert new.status is Status.INVALIDATED and new.valid_to == NOW
    assert old.status is Status.ACTIVE and old.conflicts_with == []


def test_review_keep_both_keeps_the_link_on_the_new_record() -> None:
    new, old, changes = _review("keep_both")
    assert new.status is Status.ACTIVE and new.conflicts_with == ["old"]
    assert old.status is Status.ACTIVE and old.conflicts_with == []
    assert all(c.audit.reason == "keep_both: moved" for c in changes)


def test_review_refuses_records_not_awaiting_review() -> None:
    with pytest.raises(ValidationError):
        decide_review(ReviewItem(memory=OLD), "accept", "alice", "", NOW)
    with pytest.raises(ValidationError):
        decide_review(ReviewItem(memory=rec("x", status=Status.CANDIDATE)), "maybe", "a", "", NOW)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("row", "needed"),
    [(0, True), (4, False), (5, False), (13, False), (19, True), (21, True), (25, False), (26, True)],
)
def test_near_duplicates_are_read_only_when_the_decision_looks_at_them(row: int, needed: bool) -> None:
    r = ROWS[row]
    proposal = Proposal(r.candidate, SCOPE, NOW, "alice")
    assert needs_near(proposal, View(slot=r.slot, chain=r.chain), r.policy) is needed


def test_a_decision_never_reads_near_duplicates_it_was_told_it_does_not_need() -> None:
    """Rows whose decision skips near-duplicates decide the same with or without them."""
    for r in ROWS:
        proposal = Proposal(r.candidate, SCOPE, NOW, "alice")
        if not needs_near(proposal, View(slot=r.slot, chain=r.chain), r.policy):
            noisy = Near(rec("noise", content=r.candidate.content, key=r.candidate.key), UNIT)
            assert run(Row(**{**r.__dict__, "near": (noisy,)})).op is r.op, r.name
