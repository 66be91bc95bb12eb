"""Retrieval and injection, Chinese and English: each stage of the read path."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from memquill.model import Status


@pytest.mark.parametrize(
    "secret", ["记住：我的邮箱是 alice@example.com", "Remember: my email is alice@example.com"]
)
def test_no_scope_leak_across_users_projects_sessions(mem: Memory, secret: str) -> None:
    mem.add(secret, user="alice")
    mem.add("这个项目用 React", user="alice", project="shop")
    mem.add("for now use the staging database", user="alice", session="s1")
    assert mem.search("email 邮箱 alice@example.com", user="bob") == []
    assert mem.context("邮箱 email", user="bob").text == ""
    assert not any("React" in h.memory.content for h in mem.search("React", user="alice", project="admin"))
    assert any("React" in h.memory.content for h in mem.search("React", user="alice", project="shop"))
    assert not any(
        "staging" in h.memory.content for h in mem.search("staging database", user="alice", session="s2")
    )


def test_superseded_never_returned_by_default_but_at_answers_the_old_version(
    mem: Memory, clock: FixedClock
) -> None:
    old = mem.add("我住在上海", user="u", at="2026-01-10T10:00:00+08:00").written[0]
    new = mem.add("我搬到了北京", user="u", at="2026-06-01T10:00:00+08:00").written[0]
    now_ids = [h.memory.id for h in mem.search("住在哪", user="u")]
    assert new in now_ids and old not in now_ids
    march = [h.memory.id for h in mem.search("住在哪", user="u", at="2026-03-01T00:00:00Z")]
    assert old in march and new not in march
    hist = {h.memory.id: h.memory.status for h in mem.search("住 上海 北京", user="u", include_history=True)}
    assert hist[old] is Status.SUPERSEDED and hist[new] is Status.ACTIVE


@pytest.mark.parametrize(
    ("fact", "question"),
    [
        ("记住：我的邮箱是 a@b.com", "我的邮箱是什么"),
        ("Remember that my email is a@b.com", "what's my email?"),
    ],
)
def test_exact_lookup_answers_from_the_slot(mem: Memory, fact: str, question: str) -> None:
    for i in range(15):
        mem.add(f"记住：笔记{i}：邮件服务器维护窗口是周{i % 7 + 1}", user="u")
    rid = mem.add(fact, user="u").written[0]
    hits = mem.search(question, user="u", k=3)
    assert hits[0].memory.id == rid
    assert "slot" in hits[0].why["legs"]


@pytest.mark.parametrize(
    ("plan", "question"),
    [
        ("我下周三要去杭州出差", "下周三有什么安排"),
        ("I fly to Paris next Wednesday", "what am I doing next Wednesday?"),
    ],
)
def test_time_words_in_the_query_boost_records_in_that_window(mem: Memory, plan: str, question: str) -> None:
    mem.add("记住：我周五要去牙医", user="u")
    mem.add("I have a dentist appointment on Friday, remember that", user="u")
    rid = mem.add(plan, user="u").written[0]
    hits = mem.search(question, user="u", k=3)
    assert hits[0].memory.id == rid
    assert "time_window" in hits[0].why and "time_match" in hits[0].why["scores"]


def test_near_identical_hits_collapse_keeping_the_best_supported(mem: Memory) -> None:
    from memquill.model import Audit, Create, MemoryRecord, MemoryType, RevisionOp, Scope, Source

    now = mem.clock.now()
    vec = mem.embedder.embed_passages(["The user drinks green tea every morning"])[0].tolist()  # type: ignore[union-attr]
    for i, ev in enumerate([["e1"], ["e2", "e3", "e4"]]):
        rec = MemoryRecord(
            id=f"m{i}",
            type=MemoryType.FACT,
            scope=Scope(user="u"),
            subject="user",
            key=f"k{i}",
            content="The user drinks green tea every morning" + ("." if i else ""),
            confidence=0.9,
            source=Source.EXPLICIT,
            evidence=ev,
            created_at=now,
            updated_at=now,
        )
        mem.store.apply([Create(rec, Audit(RevisionOp.ADD, "t", "t"), vec)])
    hits = mem.search("green tea", user="u")
    assert [h.memory.id for h in hits] == ["m1"]
    assert hits[0].why["collapsed"] == ["m0"]


@pytest.mark.parametrize(
    ("query", "label", "other"),
    [("我的偏好", "用户画像", "User profile"), ("my preferences", "User profile", "用户画像")],
)
def test_context_labels_follow_the_language_and_core_blocks_come_first(
    mem: Memory, query, label, other
) -> None:
    mem.set_block("persona", "You are a concise assistant.", user="u")
    mem.add("我喜欢绿茶", user="u")
    mem.add("I prefer window seats", user="u")
    ctx = mem.context(query, user="u")
    assert label in ctx.text and other not in ctx.text
    assert ctx.text.index("You are a concise assistant.") < ctx.text.index(label)
    assert ctx.items[0].section == "core"
    assert all(
        i.section in {"core", "profile", "project", "memory", "session", "checkpoint"} for i in ctx.items
    )


def test_context_respects_a_small_budget_and_keeps_the_core(mem: Memory) -> None:
    mem.set_block("profile", "Alice, backend engineer in Berlin.", user="u")
    for i in range(30):
        mem.add(f"Remember: project note {i} about the billing service and its retry policy", user="u")
    for budget in (40, 80, 200):
        ctx = mem.context("billing service retry", user="u", budget_tokens=budget)
        assert ctx.tokens <= budget
        assert mem.tokenizer.count(ctx.text) <= budget
    big = mem.context("billing service retry", user="u", budget_tokens=2000)
    assert "Alice, backend engineer" in big.text and len([i for i in big.items if i.section == "memory"]) >= 5


def test_hits_explain_themselves(mem: Memory) -> None:
    mem.add("我不喝咖啡，别给我推荐咖啡", user="u")
    hit = mem.search("咖啡", user="u")[0]
    assert set(hit.why) >= {"legs", "scores", "filters"}
    assert "lexical" in hit.why["legs"]
    assert any(f.startswith("scope:") for f in hit.why["filters"])
    assert any(f.startswith("valid_at:") for f in hit.why["filters"])


def test_feedback_moves_utilisation_and_ranking(mem: Memory) -> None:
    a = mem.add("Remember: the deploy key lives in vault path secret/deploy", user="u").written[0]
    b = mem.add("Remember: the deploy script lives in tools/deploy.sh", user="u").written[0]
    for _ in range(3):
        mem.feedback(b, useful=True)
    hits = mem.search("where does the deploy thing live", user="u")
    ranks = [h.memory.id for h in hits]
    assert ranks.index(b) < ranks.index(a)
    assert mem.get(b).useful_count == 3
