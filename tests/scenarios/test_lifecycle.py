"""Lifecycle (issue: background loop): TTL expiry, decay → archive → reactivation,
consolidation into procedures, checkpoints, read-your-writes, health."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from memquill.model import MemoryType, Status


@pytest.mark.parametrize("text", ["今天下午五点前发布 v2", "记住：this week use the old API"])
def test_short_lived_fact_expires_and_stays_for_audit(mem: Memory, clock: FixedClock, text: str) -> None:
    rid = mem.add(text, user="kim").written[0]
    rec = mem.get(rid)
    assert rec.expires_at is not None
    assert any(h.memory.id == rid for h in mem.search(text, user="kim"))
    clock.set(rec.expires_at)
    assert not any(h.memory.id == rid for h in mem.search(text, user="kim"))  # TTL filter at read
    report = mem.maintain(user="kim")
    assert rid in report.expired
    assert mem.get(rid).status is Status.EXPIRED
    assert mem.history(rid)[-1].op.value == "expire"


@pytest.mark.parametrize("text", ["我喜欢绿茶", "I like green tea"])
def test_unused_memory_decays_to_archive_and_comes_back_on_access(
    mem: Memory, clock: FixedClock, text
) -> None:
    rid = mem.add(text, user="lee").written[0]
    clock.advance(days=30)
    assert mem.maintain(user="lee").archived == []
    clock.advance(days=4 * 180)
    assert rid in mem.maintain(user="lee").archived
    assert mem.get(rid).status is Status.ARCHIVED
    assert not any(h.memory.id == rid for h in mem.search("绿茶 green tea", user="lee"))
    hits = mem.search("绿茶 green tea", user="lee", include_archived=True)
    assert any(h.memory.id == rid for h in hits)
    assert mem.get(rid).status is Status.ACTIVE
    assert mem.history(rid)[-1].op.value == "reactivate"


def test_archived_memory_reactivates_when_confirmed_again(mem: Memory, clock: FixedClock) -> None:
    rid = mem.add("I like green tea", user="lee", id="a").written[0]
    clock.advance(days=5 * 180)
    mem.maintain(user="lee")
    assert mem.get(rid).status is Status.ARCHIVED
    mem.add("I like green tea", user="lee", id="b")
    rec = mem.get(rid)
    assert rec.status is Status.ACTIVE and rec.evidence == ["a", "b"]


def test_useful_memories_decay_slower(mem: Memory, clock: FixedClock) -> None:
    used = mem.add("I like green tea", user="lee").written[0]
    unused = mem.add("I like black coffee", user="lee").written[0]
    mem.feedback(used, useful=True)
    clock.advance(days=4 * 180 + 10)
    archived = mem.maintain(user="lee").archived
    assert unused in archived and used not in archived


@pytest.mark.parametrize("project", ["api", None])
def test_repeated_outcomes_consolidate_into_one_procedure_candidate(mem: Memory, project) -> None:
    scope = {"user": "max", **({"project": project} if project else {})}
    for i in range(3):
        mem.complete_task(
            task=f"schema-change-{i}",
            outcome="deployed",
            steps=["regenerate types", "build", "test"],
            when="After changing the DB schema",
            session=f"s{i}",
            **scope,
        )
    first = mem.maintain(user="max")
    assert len(first.procedures) == 1
    procs = [r for r in mem.records(statuses=None, **scope) if r.type is MemoryType.PROCEDURE]
    assert len(procs) == 1
    proc = procs[0]
    assert proc.status is Status.CANDIDATE  # needs confirmation before it is used
    assert proc.content == "After changing the DB schema: regenerate types, then build, then test"
    assert len(proc.evidence) == 3
    assert mem.maintain(user="max").procedures == []  # re-running is a no-op
    assert proc.id in [i.memory.id for i in mem.review(include_candidates=True, **scope)]
    confirmed = mem.resolve(proc.id, "accept", reason="team agreed")
    assert confirmed.status is Status.ACTIVE


def test_two_outcomes_are_not_yet_a_procedure(mem: Memory) -> None:
    for i in range(2):
        mem.complete_task(task=f"t{i}", outcome="ok", steps=["a", "b"], user="max")
    assert mem.maintain(user="max").procedures == []


def test_checkpoint_resume_and_context(mem: Memory) -> None:
    mem.checkpoint(
        task="migrate-orders",
        done=["dump"],
        pending=["load", "verify"],
        params={"batch": 500},
        user="nia",
        session="s1",
    )
    mem.checkpoint(
        task="migrate-orders",
        done=["dump", "load"],
        pending=["verify"],
        params={"batch": 500},
        results={"rows": 1200},
        user="nia",
        session="s1",
    )
    cp = mem.resume(user="nia", session="s1")
    assert cp is not None and cp.done == ["dump", "load"] and cp.pending == ["verify"]
    assert cp.results == {"rows": 1200}
    assert len(mem.history(cp.memory_id)) == 1
    ctx = mem.context("where was I?", user="nia", session="s1")
    assert "pending: verify" in ctx.text
    assert mem.resume(user="nia", session="other") is None


def test_read_your_writes_before_the_worker_runs(mem: Memory) -> None:
    mem.add("The blue folder holds the signed contracts", user="oli", session="s1")
    hits = mem.search("blue folder contracts", user="oli", session="s1")
    assert hits and hits[0].memory.attributes.get("pending") is True
    assert "blue folder" in mem.context("contracts", user="oli", session="s1").text
    assert mem.search("blue folder contracts", user="oli", session="s2") == []
    mem.flush()
    assert not any(
        h.memory.attributes.get("pending") for h in mem.search("blue folder", user="oli", session="s1")
    )


def test_stats_report_health(mem: Memory) -> None:
    mem.add("I live in Berlin", user="pat")
    mem.add("You live in Paris", user="pat", role="assistant")
    mem.add("好的", user="pat")
    rid = mem.add("I like green tea", user="pat").written[0]
    mem.search("tea", user="pat")
    mem.feedback(rid, useful=True)
    s = mem.stats(user="pat")
    assert s["events"] == 4
    assert s["open_reviews"] == 1
    assert s["records_by_status"]["needs_review"] == 1
    assert 0 < s["conflict_rate"] <= 1
    assert s["queue_backlog"] == 4
    assert s["useful"] == 1 and s["retrieved"] >= 1
    assert s["duplicate_rate"] == 0.0
    assert any("conflict rate" in w for w in s["warnings"])
    mem.flush()
    assert mem.stats(user="pat")["queue_backlog"] == 0


def test_duplicate_rate_counts_repeated_statements(mem: Memory) -> None:
    for i in range(3):
        mem.add("记住：我的邮箱是 a@b.com", user="rae", id=f"e{i}")
    mem.add("I like tea", user="rae")
    assert mem.stats(user="rae")["duplicate_rate"] == 0.5  # 2 merges out of 2 adds + 2 merges


def test_the_first_add_is_a_cold_start_not_hot_path_latency(mem: Memory) -> None:
    """The first add() loads models and warms caches; counted as hot-path latency it made a
    short-lived process report a p95 far above the steady state (and warn about it)."""
    mem.add("我住在杭州", user="cs")
    assert "hot_path_ms" not in mem.stats(user="cs")
    mem.add("I like green tea", user="cs")
    mem.add("I like green tea", user="cs", id="again")
    s = mem.stats(user="cs")
    assert s["cold_start_ms"] > 0
    assert s["hot_path_ms"]["n"] == 2
