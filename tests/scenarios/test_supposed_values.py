"""Write rule 2: a value said only inside a supposition is not stated. "如果以后我去腾讯上班的话…"
or "if we moved to Lisbon the rent would be lower" became the user's employer / city and
superseded the real one; a negated counterfactual ("要不是搬到了杭州…") and a value said outside
the condition ("my email is … if you need it") still state their value."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from memquill.model import Status
from tests.support.sessions import say

CASES = {
    "zh": (
        [
            "我住在杭州。",
            "我在网易上班。",
            "如果以后我去腾讯上班的话，就得早起了",
            "要是我哪天搬去深圳，通勤肯定很惨",
        ],
        {"employer": "网易", "city": "杭州"},
        ["腾讯", "深圳"],
    ),
    "en": (
        [
            "I live in Porto.",
            "I work at Farfetch.",
            "if we moved to Lisbon the rent would be lower",
            "In case I end up working at Shopify, I'd need a new laptop",
        ],
        {"employer": "Farfetch", "city": "Porto"},
        ["Lisbon", "Shopify"],
    ),
}


def _slots(mem: Memory, user: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in mem.records(user=user, statuses=[Status.ACTIVE, Status.CANDIDATE]):
        if r.type != "episode" and r.value:
            out.setdefault(r.key, set()).add(r.value)
    return out


def _kept_not(mem: Memory, clock: FixedClock, turns: list[str], key: str, value: str, other: str) -> None:
    """After ``turns`` the slot ``key`` holds ``value`` alone, and ``other`` is nobody's value."""
    say(mem, clock, turns, "s1")
    slots = _slots(mem, "u")
    assert slots.get(key) == {value}, slots
    assert other not in {v for vs in slots.values() for v in vs}, slots


@pytest.mark.parametrize("lang", CASES)
def test_a_supposed_value_never_becomes_or_replaces_a_fact(mem: Memory, lang: str) -> None:
    turns, kept, supposed = CASES[lang]
    for t in turns:
        mem.add(t, user="u", session="s1")
    mem.end_session(user="u", session="s1")
    mem.flush()
    slots = _slots(mem, "u")
    for key, value in kept.items():
        assert slots.get(key) == {value}, slots
    assert not {v for vs in slots.values() for v in vs} & set(supposed)


@pytest.mark.parametrize(
    ("turn", "key", "value"),
    [
        ("要不是搬到了杭州，我也不会认识她", "city", "杭州"),
        ("My email is pat@example.com if you need it", "email", "pat@example.com"),
    ],
    ids=["zh", "en"],
)
def test_a_value_said_outside_the_condition_is_still_stated(
    mem: Memory, turn: str, key: str, value: str
) -> None:
    mem.add(turn, user="v", session="s1")
    mem.end_session(user="v", session="s1")
    mem.flush()
    assert _slots(mem, "v").get(key) == {value}


@pytest.mark.parametrize(
    ("question", "statement", "value"),
    [
        ("如果我换成 PyCharm，插件还能用吗？", "我搬到深圳了，是不是有点突然？", "深圳"),
        (
            "If I switch my editor to Helix, will my config break?",
            "I moved to Denver, is that weird?",
            "Denver",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_question_after_its_condition_is_no_instruction(
    mem: Memory, question: str, statement: str, value: str
) -> None:
    """The English question after an "if …," clause was stored as a standing instruction
    ("will my config break"); a statement followed by a question still states its value."""
    mem.add(question, user="q", session="s1")
    mem.add(statement, user="q", session="s1")
    mem.end_session(user="q", session="s1")
    mem.flush()
    kept = [r for r in mem.records(user="q") if r.type != "episode"]
    assert [r.value for r in kept] == [value], [(r.key, r.value) for r in kept]


@pytest.mark.parametrize(
    ("turns", "key", "value", "urged"),
    [
        (
            ["我习惯用 VS Code 写代码。", "同事一直劝我换成 Cursor，我还是习惯用 VS Code。"],
            "editor",
            "VS Code",
            "Cursor",
        ),
        (
            [
                "Our CI runs on GitHub Actions.",
                "Someone pitched CircleCI for parallel tests, but we're sticking with it.",
            ],
            "stack:ci",
            "GitHub Actions",
            "CircleCI",
        ),
    ],
    ids=["zh", "en"],
)
def test_what_someone_else_urges_never_replaces_the_users_value(
    mem_e5: Memory, clock: FixedClock, turns: list[str], key: str, value: str, urged: str
) -> None:
    """ "同事一直劝我换成Cursor，我还是习惯用VS Code" stored Cursor as the editor (a rule read a
    switch), "Someone pitched CircleCI…" CircleCI as the CI (the model): each superseded the
    value the user keeps."""
    _kept_not(mem_e5, clock, turns, key, value, urged)


@pytest.mark.parametrize(
    "turn",
    [
        "如果明年暑假去北京实习，住宿一般怎么解决？",  # was the plan "如果2027年暑假去北京实习"
        "如果下周去上海出差，住哪里方便？",
        "If I fly to Tokyo next month, do I need a visa?",
    ],
    ids=["zh", "zh-trip", "en"],
)
def test_a_supposed_trip_is_no_plan(mem_e5: Memory, turn: str) -> None:
    mem_e5.add(turn, user="u", session="s1")
    mem_e5.end_session(user="u", session="s1")
    mem_e5.flush()
    plans = [r.value for r in mem_e5.records(user="u", statuses=["active", "candidate"]) if "plan" in r.key]
    assert not plans, plans


@pytest.mark.parametrize(
    ("turn", "wanted"),
    [
        ("以前的领导想让我回去当顾问", {"顾问", "领导"}),  # the old manager was read as an employer
        ("My old manager from Westpac wants me back on a contract.", {"contract"}),  # as an occupation
        ("My brother-in-law keeps trying to convert me to Delta.", {"Delta"}),
    ],
    ids=["zh", "en", "en-convert"],
)
def test_what_someone_else_wants_of_the_user_is_no_fact_about_them(
    mem_e5: Memory, clock: FixedClock, turn: str, wanted: set[str]
) -> None:
    mem_e5.add(turn, user="u", session="s1")
    mem_e5.end_session(user="u", session="s1")
    mem_e5.flush()
    stored = {
        r.value for r in mem_e5.records(user="u", statuses=["active", "candidate"]) if r.type != "episode"
    }
    assert not stored & wanted, stored


@pytest.mark.parametrize(
    ("turns", "key", "value", "sought"),
    [
        (
            ["我在星河地产做数据分析。", "投了字节的简历，下周去字节面试，有点紧张。"],
            "employer",
            "星河地产",
            "字节",
        ),
        (
            [
                "I work at REI in Denver.",
                "Applied for a trail crew job with Jefferson County Open Space. Long shot.",
            ],
            "employer",
            "REI",
            "Jefferson County Open Space",
        ),
    ],
    ids=["zh", "en"],
)
def test_where_the_user_only_applied_never_replaces_the_users_value(
    mem_e5: Memory, clock: FixedClock, turns: list[str], key: str, value: str, sought: str
) -> None:
    """ "Applied for a trail crew job with Jefferson County Open Space" stored that as the
    user's occupation (the model) beside the employer they still have."""
    _kept_not(mem_e5, clock, turns, key, value, sought)


@pytest.mark.parametrize(
    ("turns", "key", "value"),
    [
        (["我在星河地产做数据分析。", "字节的offer拿到了，下个月去字节报到。"], "employer", "字节"),
        (
            ["I work at REI in Denver.", "Got the job! I start at Jefferson County Open Space on the 17th."],
            "employer",
            "Jefferson County Open Space",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_job_landed_replaces_the_old_one(
    mem_e5: Memory, clock: FixedClock, turns: list[str], key: str, value: str
) -> None:
    say(mem_e5, clock, turns, "s1")
    assert _slots(mem_e5, "u").get(key) == {value}


@pytest.mark.parametrize(
    ("turns", "key", "value", "weighed"),
    [
        (["我住在杭州。", "最近有点纠结，成都那边机会多，房价也低。"], "city", "杭州", "成都"),
        (
            ["I live in Leeds.", "Honestly half tempted by Bristol, the rent is lower."],
            "city",
            "Leeds",
            "Bristol",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_place_only_weighed_never_replaces_the_users_value(
    mem_e5: Memory, clock: FixedClock, turns: list[str], key: str, value: str, weighed: str
) -> None:
    """ "Honestly half tempted by Bristol" replaced the user's city: being tempted, torn (纠结)
    or toying with a move is a hedge, and a hedge states nothing."""
    _kept_not(mem_e5, clock, turns, key, value, weighed)


@pytest.mark.parametrize(
    ("turns", "value"),
    [
        (
            ["I work at REI.", "Update: I accepted the Carver Health offer. First day is January 6."],
            "Carver Health",
        ),
        (
            [
                "I work at REI.",
                "Plot twist: Colorado Parks and Wildlife just offered me a ranger spot, starting June 2. I'm taking it.",
            ],
            "Colorado Parks and Wildlife",
        ),
        (["我在蓝鲸物流上班。", "禾木科技给了offer，做农业数据的，一月初入职。"], "禾木科技"),
        (["I work at REI.", "Google offered me a job but I turned it down."], "REI"),
        (["我在蓝鲸物流上班。", "字节给了offer，不过我拒了。"], "蓝鲸物流"),
    ],
    ids=["en-accepted", "en-taking-it", "zh-joining", "en-declined", "zh-declined"],
)
def test_an_offer_names_the_employer_once_it_is_taken(
    mem_e5: Memory, clock: FixedClock, turns: list[str], value: str
) -> None:
    """An offer the user took ("accepted the Carver Health offer", "…offered me a ranger spot,
    starting June 2. I'm taking it.", "…给了offer，…入职") is the new employer; one declined is not."""
    say(mem_e5, clock, turns[:1], "s1")
    say(mem_e5, clock, turns[1:], "s2")
    active = mem_e5.records(user="u", statuses=["active"])
    assert {r.value for r in active if r.key == "employer" and r.subject == "user"} == {value}
