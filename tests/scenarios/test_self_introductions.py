"""A self-introduction states several identity facts at once (zh + en, every backend, rules
only and with the attribute model): the name however it is said ("本人王磊", "我是李航",
"先报个名字：陈雨晴", "Marcus Hale here"), and what the parts after it say of the user — the
role, where they live or are from, the employer. A greeting is no assistant ("你好" stays as
said), and "from Denver" beside a name is where the user is from, not a city they left."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


def facts(mem: Memory) -> set[tuple[str, str | None]]:
    recs = mem.records(user="u", statuses=["active", "candidate"])
    return {(r.key, r.value) for r in recs if r.subject == "user" and r.type.value != "episode"}


@pytest.mark.parametrize(
    ("turn", "expected"),
    [
        (
            "Hi! I'm Marcus Hale, a chemistry teacher from Denver.",
            {("name", "Marcus Hale"), ("occupation", "chemistry teacher"), ("hometown", "Denver")},
        ),
        (
            "I'm Priya, a nurse at St Mary's in Leeds",
            {("name", "Priya"), ("occupation", "nurse"), ("employer", "St Mary's"), ("city", "Leeds")},
        ),
        ("Marcus Hale here, figured I'd introduce myself first.", {("name", "Marcus Hale")}),
        (
            "自我介绍一下，我是李航，在深圳一家跨境电商做运营",
            {("name", "李航"), ("occupation", "运营"), ("city", "深圳")},
        ),
        ("你好，先报个名字：陈雨晴，叫我雨晴就行。", {("name", "陈雨晴")}),
        ("本人王磊，目前在成都", {("name", "王磊")}),
    ],
)
def test_a_self_introduction_fills_the_identity_slots(
    mem_modes: Memory, clock: FixedClock, turn: str, expected: set[tuple[str, str]]
) -> None:
    say(mem_modes, clock, [turn], "s1")
    assert expected <= facts(mem_modes)
    stored = " ".join(r.content for r in mem_modes.records(user="u", statuses=["active"]))
    assert "助手好" not in stored


@pytest.mark.parametrize(
    "turn",
    ["我是新人，多多关照", "Everyone here is really nice", "Nobody here likes it", "我是说这个方案不行"],
)
def test_no_name_in_what_only_looks_like_an_introduction(
    mem_read: Memory, clock: FixedClock, turn: str
) -> None:
    say(mem_read, clock, [turn], "s1")
    assert not {v for k, v in facts(mem_read) if k == "name"}


@pytest.mark.parametrize(
    ("turn", "expected"),
    [
        (
            "Hey, I'm a sales associate at REI in Denver, mostly the climbing section.",
            {("occupation", "sales associate"), ("employer", "REI")},
        ),
        ("I work as a barista at Blue Bottle.", {("occupation", "barista"), ("employer", "Blue Bottle")}),
        ("我在顺丰当快递员", {("occupation", "快递员"), ("employer", "顺丰")}),
        ("我在药房做店员，主要管中药柜台", {("occupation", "店员"), ("employer", "药房")}),
    ],
)
def test_a_role_no_lexicon_lists_is_known_by_the_workplace_beside_it(
    mem_modes: Memory, clock: FixedClock, turn: str, expected: set[tuple[str, str]]
) -> None:
    """ "I'm a sales associate at REI" stored only the city: "associate" is in no role list."""
    say(mem_modes, clock, [turn], "s1")
    assert expected <= facts(mem_modes)


@pytest.mark.parametrize(
    "turn", ["I'm a regular at Blue Bottle.", "I'm a little late for Sam's party.", "我在家做饭"]
)
def test_no_role_in_a_customer_a_degree_or_a_chore(mem_read: Memory, clock: FixedClock, turn: str) -> None:
    say(mem_read, clock, [turn], "s1")
    assert not {v for k, v in facts(mem_read) if k == "occupation"}


@pytest.mark.parametrize(
    ("turns", "role"),
    [
        (
            [
                "I'm a data engineer.",
                "My manager is going on sabbatical, and they've made me tech lead for the ingestion squad.",
            ],
            "tech lead",
        ),
        (["我是会计。", "任命下来了，我被任命为财务主管了。"], "财务主管"),
    ],
    ids=["en", "zh"],
)
def test_a_role_someone_gives_the_user_is_the_users(
    mem_modes: Memory, clock: FixedClock, turns: list[str], role: str
) -> None:
    """ "…they've made me tech lead" went to the manager the clause opens with, or nowhere."""
    say(mem_modes, clock, turns[:1], "s1")
    say(mem_modes, clock, turns[1:], "s2")
    active = mem_modes.records(user="u", statuses=["active"])
    assert {r.value for r in active if r.key == "occupation" and r.subject == "user"} == {role}
    assert not [r for r in active if r.key == "occupation" and r.subject == "person:manager"]


@pytest.mark.parametrize(
    ("turn", "employer"),
    [
        ("我们公司叫云杉科技，做工业物联网的，总部在合肥", "云杉科技"),
        ("Our company is called Brightline, we do logistics software.", "Brightline"),
        ("我们公司是做跨境电商的，主要卖户外用品", None),  # what it does, no name
        ("My company is a fintech startup", None),
    ],
)
def test_the_company_named_as_the_users_is_the_employer(
    mem_modes: Memory, clock: FixedClock, turn: str, employer: str | None
) -> None:
    """ "我们公司叫云杉科技，做工业物联网的" stored the company's name as a project's and its
    business as the user's role ("用户是工业物联网")."""
    say(mem_modes, clock, [turn], "s1")
    got = facts(mem_modes)
    assert {v for k, v in got if k == "employer"} == ({employer} if employer else set())
    assert not {v for k, v in got if k == "occupation"}
