"""Changing the write policy safely: versioned policies, replay, shadow runs, adaptive
thresholds (zh + en, both backends: the live store is the backend under test, scratch
stores are SQLite files)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from memquill import FixedClock, Memory
from memquill.errors import ConfigError, ValidationError
from memquill.maintain.shadow import fingerprint
from memquill.model import MemoryRecord, MemoryType, Scope, Status
from memquill.model.query import RecordFilter
from memquill.providers.fake import HashEmbedder
from memquill.settings import Settings
from memquill.store.base import Store
from memquill.write.policy import AdaptiveBounds, WritePolicy

ALICE = {"user": "alice"}


def memory(store: Store, clock: FixedClock, policy: WritePolicy | None = None) -> Memory:
    return Memory(
        store=store,
        clock=clock,
        embedder=HashEmbedder(),
        policy=policy,
        settings=Settings(default_timezone="Asia/Shanghai"),
    )


def converse(mem: Memory, clock: FixedClock, flush_each: bool = True) -> dict[str, str]:
    """A bilingual history with every logged operation: session ends, a checkpoint, a task
    completion, feedback, a review decision, a forget, and searches (one a miss)."""
    said: dict[str, str] = {}
    turns = [
        ("s1", None, "我不喝咖啡，只喝茶"),
        ("s1", None, "I live in Berlin and work at Siemens as a data engineer"),
        ("s1", None, "好的"),
        ("s1", None, "Remember: my email is alice@example.com"),
        ("s1", "web", "我们决定用 PostgreSQL，因为团队更熟悉，不用 MySQL"),
        ("s1", None, "上周和表妹去苏州看了园林，她在那边做护士"),
        ("s2", None, "I moved to Munich last month"),
        ("s2", None, "我改用浅色主题了"),
        ("s2", None, "My manager Zhou Qin wants the report every Friday"),
    ]
    for session, project, text in turns:
        clock.advance(minutes=7)
        scope = {**ALICE, "session": session, **({"project": project} if project else {})}
        said[text] = mem.add(text, **scope).event_id
        if flush_each:
            mem.flush()
        if text.startswith("上周"):
            mem.end_session(**ALICE, session="s1")
            mem.flush()
    clock.advance(hours=1)
    mem.checkpoint(task="migrate", done=["dump"], pending=["load"], **ALICE, session="s2")
    mem.complete_task(
        task="migrate", outcome="orders migrated", steps=["dump", "load"], **ALICE, project="web"
    )
    mem.end_session(**ALICE, session="s2")
    mem.flush()
    hits = mem.search("tea 茶", **ALICE)
    mem.feedback(hits[0].memory.id, useful=True)
    mem.search("how do I deploy", types=["procedure"], **ALICE)  # a miss is logged too
    email = next(r for r in mem.records(**ALICE) if r.key == "email")
    mem.forget(email.id, reason="user request")
    mem.flush()  # the episode that quoted the erased turn is rebuilt from the turn beside it
    return said


def episodes_of(mem: Memory) -> list[MemoryRecord]:
    return [r for r in mem.records(**ALICE) if r.type is MemoryType.EPISODE]


def prints(mem: Memory) -> list[tuple[object, ...]]:
    recs = mem.store.find(RecordFilter(Scope(user="alice"), statuses=None, owner=True))
    # an erased memory leaves a tombstone live; a replay never reads its (redacted) evidence
    return sorted((fingerprint(r) for r in recs if r.status is not Status.DELETED), key=repr)


def test_records_name_the_policy_that_wrote_them(make_store: Callable[..., Store], clock: FixedClock) -> None:
    policy = WritePolicy(label="team default")
    mem = memory(make_store(), clock, policy)
    rid = mem.add("记住：我对花生过敏", **ALICE).written[0]
    assert mem.get(rid).attributes["policy"] == policy.id
    assert f"written under write policy {policy.id}" in mem.explain(rid).why
    assert mem.history(rid)[-1].after["attributes"]["policy"] == policy.id
    assert mem.stats(**ALICE)["policy"] == policy.id


def test_replaying_a_store_with_its_own_policy_reproduces_its_records(
    make_store: Callable[..., Store], clock: FixedClock, tmp_path: Path
) -> None:
    live = memory(make_store(), clock)
    converse(live, clock)
    report = live.replay(into=str(tmp_path / "scratch.db"))
    assert report.events == 8 and report.skipped >= 1  # the erased turn is not replayed
    # session ends, checkpoint, completion, feedback; the forget finds nothing to redo when every
    # record of the erased turn is gone with it
    assert report.operations >= 4 and report.owners == [("default", "alice")]
    scratch = Memory(
        str(tmp_path / "scratch.db"), embedder=HashEmbedder(), clock=FixedClock("2027-01-01T00:00Z")
    )
    try:
        assert prints(scratch) == prints(live)
        everything = scratch.records(statuses=[s.value for s in Status], **ALICE)
        assert everything and not any("alice@example.com" in r.content for r in everything)
    finally:
        scratch.close()


def test_replay_is_deterministic_and_never_writes_the_live_store(
    make_store: Callable[..., Store], clock: FixedClock, tmp_path: Path
) -> None:
    live = memory(make_store(), clock)
    converse(live, clock)
    before = prints(live)
    for name in ("a.db", "b.db"):
        live.replay(WritePolicy(worthiness_threshold=0.7), into=str(tmp_path / name))
    a, b = (Memory(str(tmp_path / n), embedder=HashEmbedder(), clock=clock) for n in ("a.db", "b.db"))
    try:
        assert prints(a) == prints(b) and prints(a) != before
    finally:
        a.close()
        b.close()
    assert prints(live) == before
    target = getattr(live.store, "path", None)
    if target:  # SQLite: the same file under any spelling is refused
        with pytest.raises(ValidationError):
            live.replay(into=target)


def test_erasing_a_user_erases_their_scratch_copies(
    make_store: Callable[..., Store], clock: FixedClock, tmp_path: Path
) -> None:
    live = memory(make_store(), clock)
    converse(live, clock)
    live.add("I love hiking", user="bob")
    copy = tmp_path / "copy.db"
    live.replay(into=str(copy))
    counts = live.forget_scope(**ALICE)
    assert counts["scratch_stores"] == 1
    scratch = Memory(str(copy), embedder=HashEmbedder(), clock=clock)
    try:
        assert scratch.records(**ALICE) == [] and scratch.store.log_events(user="alice") == []
        assert scratch.records(user="bob")  # bob's copy stays
    finally:
        scratch.close()
    assert b"alice@example.com" not in copy.read_bytes()


def test_erasing_a_project_erases_it_from_scratch_copies(
    make_store: Callable[..., Store], clock: FixedClock, tmp_path: Path
) -> None:
    live = memory(make_store(), clock)
    converse(live, clock)
    live.add("The staging host for web is kestrel-7.internal", **ALICE, session="s3", project="web")
    live.add("我周末喜欢去爬山", **ALICE, session="s3")
    live.flush()
    copy = tmp_path / "copy.db"
    live.replay(into=str(copy))
    counts = live.forget_scope(**ALICE, project="web")
    assert counts["scratch_stores"] == 1
    scratch = Memory(str(copy), embedder=HashEmbedder(), clock=clock)
    try:
        statuses = [s.value for s in Status]
        everything = scratch.records(**ALICE, project="web", statuses=statuses)
        assert everything and not [r for r in everything if r.scope.project == "web"]
        left = [e.content for e in scratch.store.log_events(user="alice")]
        assert not any("kestrel-7" in t or "PostgreSQL" in t for t in left)
        assert "我周末喜欢去爬山" in left  # the rest of the user stays in the copy
    finally:
        scratch.close()
    raw = copy.read_bytes()
    assert b"kestrel-7" not in raw and "PostgreSQL，因为".encode() not in raw


@pytest.mark.parametrize(
    ("text", "words"),
    [("我的银行卡密码提示是 海棠0815", "海棠0815"), ("My locker code at the gym is 7731-Q", "7731-Q")],
)
def test_forgetting_a_memory_erases_it_from_scratch_copies(
    make_store: Callable[..., Store], clock: FixedClock, tmp_path: Path, text: str, words: str
) -> None:
    live = memory(make_store(), clock)
    converse(live, clock)
    live.add(text, **ALICE, session="s3")
    live.end_session(**ALICE, session="s3")
    live.flush()
    copy = tmp_path / "copy.db"
    live.replay(into=str(copy))
    citing = [r for r in live.records(**ALICE, statuses=[s.value for s in Status]) if words in r.content]
    assert citing
    live.forget(citing[0].id, reason="user asked")
    scratch = Memory(str(copy), embedder=HashEmbedder(), clock=clock)
    try:
        left = scratch.records(**ALICE, statuses=[s.value for s in Status])
        assert left and not any(words in r.content for r in left)
        assert not any(words in e.content for e in scratch.store.log_events(user="alice"))
    finally:
        scratch.close()
    assert words.encode() not in copy.read_bytes()


def test_a_copy_holding_only_the_erased_user_is_deleted(
    make_store: Callable[..., Store], clock: FixedClock, tmp_path: Path
) -> None:
    live = memory(make_store(), clock)
    converse(live, clock)
    copy = tmp_path / "alice-only.db"
    live.replay(into=str(copy), user="alice")
    live.forget_scope(**ALICE)
    assert not copy.exists()


def test_shadow_reports_without_changing_anything_live(tmp_path: Path, clock: FixedClock) -> None:
    db = tmp_path / "live.db"
    live = Memory(
        str(db), clock=clock, embedder=HashEmbedder(), settings=Settings(default_timezone="Asia/Shanghai")
    )
    converse(live, clock)
    live.close()
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    live = Memory(str(db), clock=clock, embedder=HashEmbedder())
    stricter = WritePolicy(type_thresholds={MemoryType.EPISODE: 0.65, MemoryType.FACT: 0.95})
    report = live.shadow(stricter)
    looser = live.shadow(WritePolicy(worthiness_threshold=0.3, confidence_floor=0.5))
    live.close()
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    assert report.disappear and not report.appear
    assert {d["type"] for d in report.disappear} <= {"episode", "fact"}
    assert all(d["evidence_text"] for d in report.disappear)
    out = report.to_dict()
    assert out["metrics"]["live"]["active"] > out["metrics"]["candidate"]["active"]
    assert out["policy_diff"]["type_thresholds.episode"] == {"live": None, "candidate": 0.65}
    assert out["queries"] == 2 and out["overlap_at_k"] is not None
    assert looser.to_dict()["metrics"]["candidate"]["active"] >= looser.to_dict()["metrics"]["live"]["active"]


def test_switching_policy_is_audited_and_reextracts_in_the_background(
    make_store: Callable[..., Store], clock: FixedClock
) -> None:
    mem = memory(make_store(), clock, WritePolicy(type_thresholds={MemoryType.EPISODE: 0.9}))
    mem.add("上周和表妹去苏州看了园林，她在那边做护士", **ALICE, session="s1")
    mem.end_session(**ALICE, session="s1")
    mem.flush()
    assert not episodes_of(mem)
    with pytest.raises(ValidationError):
        mem.set_policy(WritePolicy(), reason=" ")
    queued = mem.set_policy(WritePolicy(), reason="episodes carry recall on long chats", actor="ops")
    assert queued == 1
    assert [(r.policy_id, r.actor, r.reason) for r in mem.policy_history()] == [
        (WritePolicy().id, "ops", "episodes carry recall on long chats")
    ]
    mem.flush()
    episodes = episodes_of(mem)
    assert episodes and episodes[0].attributes["policy"] == WritePolicy().id
    reopened = Memory(store=mem.store, clock=clock, embedder=HashEmbedder())
    assert reopened.policy.id == WritePolicy().id  # the live policy survives a restart


def test_a_policy_file_round_trips_through_export(
    make_store: Callable[..., Store], clock: FixedClock
) -> None:
    mem = memory(make_store(), clock, WritePolicy(ttl_days={MemoryType.TEMPORARY: 3}))
    assert WritePolicy.from_json(mem.policy.to_json()) == mem.policy
    with pytest.raises(ConfigError):
        WritePolicy.from_json('{"worthiness_threshold": "high"}')


def test_a_type_retrieved_often_and_never_useful_is_written_less_eagerly(
    make_store: Callable[..., Store], clock: FixedClock
) -> None:
    bounds = AdaptiveBounds(enabled=True, step=0.05, ceiling=0.7, min_retrievals=3)
    mem = memory(make_store(), clock, WritePolicy(adaptive=bounds))
    for text in ("I like green tea", "I like jazz music", "I like hiking in the Alps", "我喜欢吃火锅"):
        mem.add(text, **ALICE)
    for q in ("tea", "jazz", "hiking", "火锅"):
        mem.search(q, **ALICE)
    off = mem.stats(**ALICE)["adaptive"]
    assert off["changes"]["preference"]["to"] == 0.55
    proposal = mem.adapt()
    assert proposal.changes[MemoryType.PREFERENCE][:2] == (0.5, 0.55)
    assert mem.policy.type_thresholds[MemoryType.PREFERENCE] == 0.55
    last = mem.policy_history()[-1]
    assert last.actor == "adaptive" and "preference 0.50→0.55" in last.reason and "useful" in last.reason


def test_a_type_marked_useful_keeps_its_threshold(
    make_store: Callable[..., Store], clock: FixedClock
) -> None:
    bounds = AdaptiveBounds(enabled=True, min_retrievals=3)
    mem = memory(make_store(), clock, WritePolicy(adaptive=bounds))
    for text in ("I like green tea", "I like jazz music", "我喜欢吃火锅"):
        rid = mem.add(text, **ALICE).written[0]
        mem.feedback(rid, useful=True)
    for q in ("tea", "jazz", "火锅"):
        mem.search(q, **ALICE)
    assert mem.adapt().changes == {}
    assert mem.policy_history() == [] and MemoryType.PREFERENCE not in mem.policy.type_thresholds


def test_adaptation_is_off_by_default_and_only_reported(
    make_store: Callable[..., Store], clock: FixedClock
) -> None:
    mem = memory(make_store(), clock, WritePolicy(adaptive=AdaptiveBounds(min_retrievals=2)))
    for text in ("I like green tea", "我喜欢吃火锅"):
        mem.add(text, **ALICE)
    for q in ("tea", "火锅"):
        mem.search(q, **ALICE)
    proposal = mem.adapt()
    assert proposal.changes and mem.policy_history() == [] and mem.policy.type_thresholds == {}


def test_operations_are_logged_for_replay_but_are_not_interactions(
    make_store: Callable[..., Store], clock: FixedClock
) -> None:
    mem = memory(make_store(), clock)
    converse(mem, clock)
    kinds = [e.metadata.get("kind") for e in mem.store.log_events(user="alice") if e.role.value == "system"]
    assert {"session_end", "checkpoint", "task_outcome", "feedback", "forget"} <= set(kinds)
    forget = next(e for e in mem.store.log_events(user="alice") if e.metadata.get("kind") == "forget")
    assert "alice@example.com" not in forget.content + str(forget.metadata)
    assert mem.stats(**ALICE)["events"] == 11  # 9 turns, the checkpoint and the completion
    assert not [
        r for r in mem.records(statuses=[s.value for s in Status], **ALICE) if "session end" in r.content
    ]
    misses = [q for q in mem.store.queries(user="alice") if not q.hits]
    assert [(q.query, q.types) for q in misses] == [("how do I deploy", ["procedure"])]


def test_a_type_asked_for_and_missed_is_written_more_readily(
    make_store: Callable[..., Store], clock: FixedClock
) -> None:
    bounds = AdaptiveBounds(enabled=True, step=0.1, floor=0.3, min_misses=4)
    mem = memory(make_store(), clock, WritePolicy(adaptive=bounds))
    mem.add("I like green tea", **ALICE)
    for q in ("what's my email", "我的邮箱是什么", "what is my phone number", "我的手机号多少"):
        mem.search(q, **ALICE)  # slot questions: only a preference comes back
    proposal = mem.adapt()
    assert proposal.changes[MemoryType.FACT][:2] == (0.5, 0.4)
    assert "missed 4 times" in mem.policy_history()[-1].reason
