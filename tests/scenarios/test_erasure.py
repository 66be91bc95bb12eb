"""Erasure: forget(id) purges content everywhere; forget_scope(user) touches nobody else."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
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
        ("记住：我的手机号是 13812345678", "我喜欢喝乌龙茶，每天下午都要泡上一壶", "13812345678"),
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


# --- erasure re-reads what the erased turns shared a record with (as a replay would) ---


def _ended(mem: Memory, user: str, *turns: str) -> list[str]:
    ids = [mem.add(t, user=user, session="s1").event_id for t in turns]
    mem.end_session(user=user, session="s1")
    mem.flush()
    return ids


@pytest.mark.parametrize(
    ("turn", "story", "secret", "kept"),
    [
        (
            "I live in Berlin",
            "Yesterday I met Sam at the climbing gym and we tried the new overhang wall",
            "Berlin",
            "overhang",
        ),
        ("我住在柏林", "上周和表妹去苏州看了园林，她在那边做护士", "柏林", "园林"),
    ],
)
def test_forgetting_a_fact_rebuilds_the_episode_it_shared_from_the_other_turns(
    mem: Memory, turn: str, story: str, secret: str, kept: str
) -> None:
    said, other = _ended(mem, "ann", turn, story)
    episode = next(r for r in mem.records(user="ann") if r.type.value == "episode")
    assert set(episode.evidence) == {said, other}  # one episode over both turns
    mem.forget(next(r for r in mem.records(user="ann") if r.key == "city").id)
    mem.flush()
    left = mem.records(user="ann")
    assert not any(secret in r.content for r in left)
    rebuilt = [r for r in left if r.type.value == "episode" and r.status is Status.ACTIVE]
    assert [r.evidence for r in rebuilt] == [[other]] and kept in rebuilt[0].content


@pytest.mark.parametrize(
    ("turn", "story"),
    [
        ("I live in Berlin", "Yesterday I met Sam at the climbing gym and we tried the new overhang wall"),
        ("我住在柏林", "上周和表妹去苏州看了园林，她在那边做护士"),
    ],
)
def test_a_fact_said_again_outlives_forgetting_the_first_saying(mem: Memory, turn: str, story: str) -> None:
    first, _ = _ended(mem, "ann", turn, story)
    again = mem.add(turn, user="ann", session="s2").event_id
    mem.flush()
    city = next(r for r in mem.records(user="ann") if r.key == "city")
    assert set(city.evidence) == {first, again}
    mem.forget(next(r for r in mem.records(user="ann") if r.type.value == "episode").id)  # takes `first`
    mem.flush()
    now = [r for r in mem.records(user="ann") if r.key == "city" and r.status is Status.ACTIVE]
    assert [r.evidence for r in now] == [[again]]  # the restatement still says it


@pytest.mark.parametrize(
    "turns",
    [
        ("I live in Shanghai", "I moved to Beijing", "I moved to Tokyo"),
        ("我住在上海", "我搬到了北京", "我搬到了东京"),
    ],
)
def test_forgetting_a_middle_version_closes_the_chain_over_the_gap(
    mem: Memory, clock: FixedClock, turns: tuple[str, ...]
) -> None:
    for t in turns:
        clock.advance(minutes=5)
        mem.add(t, user="ann")
        mem.flush()
    chain = sorted(mem.records(user="ann", statuses=None), key=lambda r: r.created_at)
    first, middle, last = chain
    assert (first.superseded_by, middle.superseded_by) == (middle.id, last.id)
    mem.forget(middle.id)
    first, last = mem.get(first.id), mem.get(last.id)
    assert first.status is Status.SUPERSEDED and first.superseded_by == last.id
    assert first.valid_to == last.valid_from and last.supersedes == first.id
    current = [r.id for r in mem.records(user="ann") if r.status is Status.ACTIVE]
    assert current == [last.id]  # one current value, not two


@pytest.mark.parametrize("turn", ["I moved to Tokyo", "我搬到了东京"])
def test_forgetting_the_only_predecessor_leaves_no_trace_of_the_change(
    mem: Memory, clock: FixedClock, turn: str
) -> None:
    old = mem.add("I live in Shanghai" if turn.startswith("I") else "我住在上海", user="ann").written[0]
    clock.advance(minutes=5)
    new = mem.add(turn, user="ann").written[0]
    assert mem.get(new).supersedes == old and mem.get(new).valid_from is not None
    mem.forget(old)
    after = mem.get(new)
    assert after.status is Status.ACTIVE and after.supersedes is None
    assert after.valid_from is None  # when it replaced the forgotten value is itself forgotten


@pytest.mark.parametrize("said", ["This project uses Python 3.11", "这个项目用的是 Python 3.11"])
def test_a_claim_held_for_review_against_a_forgotten_memory_is_decided_again(mem: Memory, said: str) -> None:
    mem.add(said, user="ann", session="s1")
    mem.add(said, user="ann", session="s1", role="assistant")
    mem.flush()
    recs = mem.records(user="ann", statuses=None)
    held = [r for r in recs if r.status is Status.NEEDS_REVIEW]
    assert held, [(r.content, r.status, r.source) for r in recs]
    user_fact = next(r for r in recs if r.id in held[0].conflicts_with)
    mem.forget(user_fact.id)
    mem.flush()
    left = mem.records(user="ann", statuses=None)
    assert not any(r.status is Status.NEEDS_REVIEW for r in left)
    assert any(r.status is Status.ACTIVE and r.evidence == held[0].evidence for r in left)


@pytest.mark.parametrize(
    ("a", "x", "b"),
    [
        (
            "I started learning the cello this autumn with a new teacher",
            "This project uses Python 3.11",
            "My cello teacher says my bowing has improved a lot since September",
        ),
        (
            "今年秋天我开始跟一位新老师学大提琴",
            "这个项目用的是 Python 3.11",
            "大提琴老师说我的运弓比九月进步了很多",
        ),
    ],
)
def test_a_turn_in_another_project_does_not_cut_an_episode(mem: Memory, a: str, x: str, b: str) -> None:
    """What one scope's episodes hold must not depend on turns elsewhere: erasing the
    project turn (or replaying a log without it) would otherwise change them."""
    first = mem.add(a, user="ann", session="s1").event_id
    mem.add(x, user="ann", session="s1", project="web")
    second = mem.add(b, user="ann", session="s1").event_id
    mem.end_session(user="ann", session="s1")
    mem.flush()
    episodes = [r for r in mem.records(user="ann") if r.type.value == "episode" and r.scope.project is None]
    assert [r.evidence for r in episodes] == [[first, second]]
