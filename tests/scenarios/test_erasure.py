"""Erasure: forget(id) purges content everywhere; forget_scope(user) touches nobody else."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.model import Status


def test_forget_purges_record_revisions_and_indexes(mem: Memory) -> None:
    rid = mem.add("记住：我的银行卡号是 6222 0000 1111", user="gina").written[0]
    mem.add("我喜欢深色主题", user="gina")
    tomb = mem.forget(rid, reason="user request")
    assert tomb.status is Status.DELETED and tomb.content == ""
    assert tomb.attributes["reason"] == "user request"
    assert all(r.before is None and r.after is None for r in mem.history(rid)[:-1])
    assert "6222" not in str(mem.history(rid)[-1].model_dump())
    assert mem.history(rid)[-1].op.value == "forget"
    assert not any(h.memory.id == rid for h in mem.search("银行卡号 6222", user="gina", include_history=True))
    assert rid not in mem.store.embeddings([rid])


def test_forget_scope_erases_one_user_and_nobody_else(mem: Memory) -> None:
    for user in ("hank", "ivy"):
        mem.add("记住：我的邮箱是 x@example.com", user=user, session="s")
        mem.add("I prefer green tea", user=user, session="s")
        mem.set_block("profile", f"{user} profile", user=user)
    mem.flush()
    ivy_before = (mem.records(user="ivy", statuses=None), mem.store.tally("default", "ivy"))
    counts = mem.forget_scope(user="hank")
    assert counts["events"] == 2 and counts["memories"] >= 2
    assert mem.records(user="hank", statuses=None) == []
    assert mem.search("tea 邮箱", user="hank") == []
    assert mem.store.tally("default", "hank").events == 0
    assert mem.blocks(user="hank") == []
    assert (mem.records(user="ivy", statuses=None), mem.store.tally("default", "ivy")) == ivy_before
    assert len(mem.search("green tea", user="ivy")) >= 1


def test_tenants_are_isolated(mem: Memory) -> None:
    mem.add("记住：我的邮箱是 a@one.example", user="jo", tenant="one")
    mem.add("记住：我的邮箱是 a@two.example", user="jo", tenant="two")
    one = [h.memory.value for h in mem.search("邮箱", user="jo", tenant="one")]
    assert one == ["a@one.example"]
    mem.forget_scope(user="jo", tenant="one")
    assert [h.memory.value for h in mem.search("邮箱", user="jo", tenant="two")] == ["a@two.example"]


@pytest.mark.parametrize(
    ("turn", "other", "secret"),
    [
        (
            "Remember: my email is alice@example.com",
            "I love hiking in the Alps on weekends",
            "alice@example.com",
        ),
        ("记住：我的手机号是 13812345678", "我喜欢喝乌龙茶", "13812345678"),
    ],
)
def test_forgetting_a_memory_takes_every_record_made_from_its_turn(
    mem: Memory, turn: str, other: str, secret: str
) -> None:
    mem.add(turn, user="ann", session="s1")
    kept = mem.add(other, user="ann", session="s1").event_id
    mem.end_session(user="ann", session="s1")
    mem.flush()
    holding = [r for r in mem.records(user="ann") if secret in r.content]
    assert len(holding) >= 2  # the slot fact and the episode quoting the same turn
    mem.forget(next(r for r in holding if r.type.value != "episode").id)  # the slot fact
    left = mem.records(statuses=[s.value for s in Status], user="ann")
    assert not any(secret in r.content for r in left)
    assert not any(secret in h.memory.content for h in mem.search(secret, user="ann"))
    assert any(r.status is Status.ACTIVE and r.evidence == [kept] for r in left)  # the other turn stays
