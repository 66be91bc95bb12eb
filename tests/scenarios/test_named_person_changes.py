"""A relative's change said by their name is theirs (zh + en, every backend, the real embedder
and the attribute model): once "my sister Maeve" / "我姐姐叫林晓" is known, a clause opening
with the name ("Maeve … took her straight back as a veterinary nurse", "林晓…现在在一家药企做
医药代表") goes to ``person:sister`` even when a rule read it as the user's, and the user's own
slot is untouched; a clause where the user is the subject stays the user's."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


@pytest.mark.parametrize(
    ("intro", "change", "key", "value", "question"),
    [
        (
            "我姐姐叫林晓，在医院当护士。",
            "林晓上个月辞职了，现在在一家药企做医药代表。",
            "employer",
            "药企",
            "我姐现在在哪上班",
        ),
        (
            "My sister Maeve is a paramedic in Galway.",
            "Maeve called me herself — the clinic took her straight back as a veterinary nurse.",
            "occupation",
            "veterinary nurse",
            "sis's job now?",
        ),
    ],
)
def test_a_clause_opening_with_a_known_name_is_that_persons(
    mem_e5: Memory, clock: FixedClock, intro: str, change: str, key: str, value: str, question: str
) -> None:
    say(mem_e5, clock, [intro], "s1", gap_days=20)
    say(mem_e5, clock, [change], "s2", gap_days=20)
    recs = mem_e5.records(user="u", statuses=["active", "candidate"])
    assert ("person:sister", value) in {(r.subject, r.value) for r in recs if r.key == key}
    assert not [r for r in recs if r.subject == "user" and r.value == value]
    hits = mem_e5.search(question, user="u", k=5)
    assert any(h.memory.value == value for h in hits[:2])


@pytest.mark.parametrize(
    ("intro", "mine"),
    [
        ("我姐姐叫林晓，在医院当护士。", "林晓介绍我去了一家药企，我现在在药企做医药代表。"),
        (
            "My sister Maeve is a paramedic in Galway.",
            "Maeve got me an interview, and I work as a data analyst now.",
        ),
    ],
)
def test_the_users_own_change_beside_a_name_stays_the_users(
    mem_e5: Memory, clock: FixedClock, intro: str, mine: str
) -> None:
    say(mem_e5, clock, [intro], "s1", gap_days=20)
    say(mem_e5, clock, [mine], "s2", gap_days=20)
    recs = mem_e5.records(user="u", statuses=["active", "candidate"])
    assert not [r for r in recs if r.attributes.get("linked_from") == "user"]


@pytest.mark.parametrize(
    ("turns", "now", "before"),
    [
        (
            [
                "My manager is Priya.",
                "New manager is Marcus, came over from the Leeds office.",
                "Reorg at work: Marcus is moving to the data platform team and we're getting Helen as our manager.",
            ],
            "Helen",
            {"Priya", "Marcus"},
        ),
        (
            ["我的领导是老周。", "新领导叫许磊，比我大不了几岁。", "现在的领导是陈姐，人很干脆。"],
            "陈姐",
            {"老周", "许磊"},
        ),
    ],
    ids=["en", "zh"],
)
def test_a_new_manager_said_without_my_replaces_the_old_one(
    mem_modes: Memory, clock: FixedClock, turns: list[str], now: str, before: set[str]
) -> None:
    """ "New manager is Marcus", "we're getting Helen as our manager", "新领导叫许磊" left the
    first manager's name active: the rule wanted "my manager is …"."""
    for i, turn in enumerate(turns):
        say(mem_modes, clock, [turn], f"s{i}")
    active = {
        r.value for r in mem_modes.records(user="u", statuses=["active"]) if r.subject == "person:manager"
    }
    assert now in active and not active & before, active


@pytest.mark.parametrize(
    ("turns", "was", "now", "question"),
    [
        (
            [
                "我老板周凯今天又在群里@全员说周末要加班，烦死",
                "周凯调去别的事业部了，新来的领导叫黄敏，今天第一次一对一，人还挺和气",
                "黄敏其实只是代管，今天正式宣布了，我们组以后归宋一鸣管，他是从阿里过来的",
            ],
            {"周凯", "黄敏"},
            "宋一鸣",
            "我现在直属领导是谁啊",
        ),
        (
            [
                "My manager Rohit wants estimates in story points AND hours.",
                "Rohit's left for a startup, so Meera's taken over the team. She already cancelled half our meetings.",
                "Anand (our new EM) approved my leave in three minutes flat.",
            ],
            {"Rohit", "Meera"},
            "Anand",
            "Who do I report to at the moment?",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_new_manager_named_without_the_relation_word_replaces_the_old(
    mem_e5: Memory, clock: FixedClock, turns: list[str], was: set[str], now: str, question: str
) -> None:
    """The catalogue's ``named_by`` phrases ("归X管", "X's taken over the team") and appositions
    ("Anand (our new EM)", "新来的领导叫黄敏") name the manager: each change was lost, so the
    first manager answered "who's my boss" months later."""
    for i, turn in enumerate(turns):
        say(mem_e5, clock, [turn], f"s{i}", gap_days=20)
    names = {
        (r.value, r.status.value)
        for r in mem_e5.records(user="u", statuses=["active", "superseded"])
        if r.subject == "person:manager" and r.key == "name"
    }
    assert {v for v, status in names if status == "active"} == {now}, names
    assert was <= {v for v, status in names if status == "superseded"}, names
    hits = mem_e5.search(question, user="u", k=3)
    assert hits and now in hits[0].memory.content, [h.memory.content for h in hits]
