"""Whose value a turn states, and whether it is an order (zh + en, every backend, the real
embedder, attribute model off and on): a common noun opening a clause is no person ("手机…",
"Phone's…"); a name that moved on owns the move ("Priya's … left Dublin for Lisbon", "周琴搬去
成都了"), so the user's city stays; a person named as the one the user reports to, or beside a
relation word ("新领导郑凯…"), is the manager, not the employer; a statement opening with a
word that is no verb ("Pescatarian now I suppose") is not stored as something the user asked."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say, say_apart


@pytest.mark.parametrize(
    ("turn", "thing"),
    [
        ("手机现在用的是小米14，拍照很好", "小米14"),
        ("Phone's an iPhone 15 now, the camera is great", "iPhone 15"),
    ],
)
def test_a_common_noun_opening_a_clause_is_no_person(
    mem_modes: Memory, clock: FixedClock, turn: str, thing: str
) -> None:
    say(mem_modes, clock, [turn], "s1")
    recs = mem_modes.records(user="u", statuses=["active", "candidate"])
    assert not [r for r in recs if r.subject in ("person:手机", "person:Phone")]


@pytest.mark.parametrize(
    ("home", "intro", "theirs", "question", "city"),
    [
        (
            "我住在杭州，在网易上班",
            "我领导叫周琴，人很好",
            "周琴搬去成都了，说那边节奏慢",
            "我现在住在哪个城市",
            "杭州",
        ),
        (
            "I live in Leeds these days, near the canal.",
            "My mate Priya in Manchester keeps trying to get me into bouldering.",
            "Priya's done it again: left Dublin for Lisbon on some digital nomad visa. I can't keep up.",
            "where do I live now",
            "Leeds",
        ),
    ],
)
def test_someone_elses_move_does_not_move_the_user(
    mem_modes: Memory, clock: FixedClock, home: str, intro: str, theirs: str, question: str, city: str
) -> None:
    # rules only too: the move rule reads who moved from the words before it ("周琴…")
    for n, turn in enumerate((home, intro, theirs)):
        say(mem_modes, clock, [turn], f"s{n}", gap_days=20)
    hits = mem_modes.search(question, user="u", k=5)
    assert city in (hits[0].memory.value or hits[0].memory.content)
    cities = [
        r.value
        for r in mem_modes.records(user="u", statuses=["active"])
        if (r.subject, r.key) == ("user", "city")
    ]
    assert cities == [city]


@pytest.mark.parametrize(
    ("turns", "subject", "place"),
    [
        (["我住在杭州", "周琴搬去成都了"], "person:周琴", "成都"),
        (["我住在杭州", "小林调到深圳了"], "person:小林", "深圳"),
        (["我住在杭州", "老周调去深圳了"], "person:老周", "深圳"),
        (["我住在杭州", "小张搬去成都了"], "person:小张", "成都"),
        (["I live in Leeds", "we moved to Bristol in the spring"], "user", "Bristol"),
        (["我住在杭州", "终于搬到苏州了"], "user", "苏州"),
        # the date normaliser writes 上周 as "2026年第N周（…）": that 周 is a week, not a person
        (["我住在苏州", "跟你说一声，上周刚搬到杭州，箱子还没拆完"], "user", "杭州"),
        (["I live in Leeds", "Heads up, last week I moved to Bristol, boxes everywhere"], "user", "Bristol"),
    ],
)
def test_the_move_rule_reads_who_moved(
    mem_read: Memory, clock: FixedClock, turns: list[str], subject: str, place: str
) -> None:
    say_apart(mem_read, clock, turns, gap_days=20)
    moved = [r for r in mem_read.records(user="u", statuses=["active"]) if r.value == place]
    assert [r.subject for r in moved] == [subject]


@pytest.mark.parametrize(
    ("turns", "question", "now", "before"),
    [
        (
            ["我住在上海", "跟你说一声，上周刚搬到杭州", "又搬家了，现在在苏州安顿下来了"],
            "我现在住哪个城市",
            "苏州",
            ["上海", "杭州"],
        ),
        (
            [
                "I live in Leeds",
                "Heads up, last week I moved to Bristol",
                "Moved again: I moved to York this spring",
            ],
            "which city do I live in now",
            "York",
            ["Leeds", "Bristol"],
        ),
    ],
)
def test_a_move_said_with_last_week_is_superseded_by_the_next(
    mem_modes: Memory, clock: FixedClock, turns: list[str], question: str, now: str, before: list[str]
) -> None:
    say_apart(mem_modes, clock, turns, gap_days=40)
    hits = mem_modes.search(question, user="u", k=5)
    assert now in (hits[0].memory.value or hits[0].memory.content)
    active = [r for r in mem_modes.records(user="u", statuses=["active"]) if r.key == "city"]
    assert [(r.subject, r.value) for r in active] == [("user", now)]
    assert not [h for h in hits if any(b in h.memory.content for b in before) and now not in h.memory.content]


@pytest.mark.parametrize(
    ("job", "manager", "employer"),
    [
        ("我在网易上班", "新领导郑凯第一次一对一就问我三年职业规划，我当场懵了", "网易"),
        (
            "I work at Tidewell as a site engineer.",
            "Thandiwe retired, so I now report to Pieter Olivier.",
            "Tidewell",
        ),
    ],
)
def test_a_managers_name_is_no_employer(
    mem_modes: Memory, clock: FixedClock, job: str, manager: str, employer: str
) -> None:
    say(mem_modes, clock, [job], "s1", gap_days=20)
    say(mem_modes, clock, [manager], "s2", gap_days=20)
    employers = [r.value for r in mem_modes.records(user="u", statuses=["active"]) if r.key == "employer"]
    assert employers == [employer]


def test_a_manager_named_beside_the_relation_word_is_read(mem_e5: Memory, clock: FixedClock) -> None:
    say(mem_e5, clock, ["新领导郑凯第一次一对一就问我三年职业规划，我当场懵了"], "s1")
    names = [(r.subject, r.value) for r in mem_e5.records(user="u") if r.key == "name"]
    assert ("person:manager", "郑凯") in names


@pytest.mark.parametrize(
    ("turn", "asked"),
    [
        ("Started eating fish again, doctor says my iron is rubbish. Pescatarian now I suppose", "asked"),
        ("最近又开始吃鱼了，医生说我缺铁，算是半素食吧", "用户要求"),
    ],
)
def test_a_statement_opening_with_no_verb_is_not_an_order(
    mem_modes: Memory, clock: FixedClock, turn: str, asked: str
) -> None:
    say(mem_modes, clock, [turn], "s1")
    made = [r.content for r in mem_modes.records(user="u") if r.type.value != "episode"]
    assert not [c for c in made if asked in c]


@pytest.mark.parametrize(
    ("before", "change", "old", "new"),
    [
        ("我领导是周琴", "改成向郑凯汇报了", "周琴", "郑凯"),
        (
            "My manager is Thandiwe Nkosi.",
            "I now report to Pieter Olivier.",
            "Thandiwe Nkosi",
            "Pieter Olivier",
        ),
        # a connective opening the clause ("so", "所以") once hid the report line
        ("我领导是周琴", "组织调整了，所以现在改成向郑凯汇报了", "周琴", "郑凯"),
        (
            "My new manager Marcus wants a 30-60-90 plan by Friday.",
            "Reorg news: Marcus moved to the platform team, so I report to Priya now.",
            "Marcus",
            "Priya",
        ),
        # a manager said to have changed names the new one (jieba cut 甘雨/桐; decision 0017d)
        ("我领导叫贺砚秋", "组织调整，我领导换成了甘雨桐", "贺砚秋", "甘雨桐"),
        (
            "My manager is Tom Baker",
            "Big reorg this week. My manager changed to Priya Raman",
            "Tom Baker",
            "Priya Raman",
        ),
    ],
)
def test_whom_the_user_reports_to_is_the_manager(
    mem_modes: Memory, clock: FixedClock, before: str, change: str, old: str, new: str
) -> None:
    # "改成向郑凯汇报了" once became `uses:向郑凯汇报` (a thing the user switched to)
    say(mem_modes, clock, [before], "s1", gap_days=20)
    say(mem_modes, clock, [change], "s2", gap_days=20)
    recs = mem_modes.records(user="u", statuses=["active", "candidate"])
    assert [r.value for r in recs if (r.subject, r.key) == ("person:manager", "name")] == [new]
    assert not [r for r in recs if r.key.startswith("uses:") or r.value == old]
    # an old manager's name that was stored is superseded by the new one, not deleted or left over
    every = mem_modes.records(
        user="u", statuses=["active", "candidate", "superseded", "invalidated", "archived"]
    )
    stored = [r.status.value for r in every if (r.subject, r.key, r.value) == ("person:manager", "name", old)]
    assert set(stored) <= {"superseded"}, stored


@pytest.mark.parametrize(
    ("turn", "name"),
    [
        ("我领导是个急性子", None),
        ("我老板是新加坡人，开会都说英文", None),
        ("my boss is a night owl", None),
        ("我领导是周琴", "周琴"),
        ("My manager is called Rebecca, she's pretty chill", "Rebecca"),
    ],
)
def test_what_the_manager_is_like_is_no_name(
    mem_read: Memory, clock: FixedClock, turn: str, name: str | None
) -> None:
    say(mem_read, clock, [turn], "s1")
    names = [r.value for r in mem_read.records(user="u", statuses=["active", "candidate"]) if r.key == "name"]
    assert names == ([name] if name else [])


@pytest.mark.parametrize(
    ("turns", "theirs", "mine"),
    [
        (
            ["I drink green tea every morning.", "My wife's switched to black coffee btw, she's judging me."],
            ("person:wife", "black coffee"),
            "green tea",
        ),
        (["我平时爱喝绿茶。", "我老婆换成喝黑咖啡了，天天笑我。"], ("person:wife", "黑咖啡"), "绿茶"),
    ],
    ids=["en", "zh"],
)
def test_a_preference_said_of_a_relation_is_theirs(
    mem_modes: Memory, clock: FixedClock, turns: list[str], theirs: tuple[str, str], mine: str
) -> None:
    """ "My wife's switched to black coffee btw" replaced the user's own drink with "black
    coffee btw": the switch rule filed every preference under the user."""
    say(mem_modes, clock, turns, "s1")
    recs = mem_modes.records(user="u", statuses=["active", "candidate"])
    drinks = {(r.subject, r.value) for r in recs if r.key == "beverage"}
    assert ("user", mine) in drinks, drinks
    assert not {v for s, v in drinks if s == "user" and v != mine}, drinks
    assert {v for s, v in drinks if s == theirs[0]} <= {theirs[1]}, drinks


@pytest.mark.parametrize(
    ("turn", "team"),
    [
        ("Reorg news: Marcus moved to the platform team, so I report to Priya now.", None),
        ("I moved to the growth team last week.", "growth team"),
        ("老周调到风控组了", None),
        ("我被调到风控组了", "风控组"),
    ],
)
def test_someone_elses_move_is_not_the_users_team(
    mem_read: Memory, clock: FixedClock, turn: str, team: str | None
) -> None:
    say(mem_read, clock, [turn], "s1")
    recs = mem_read.records(user="u", statuses=["active", "candidate"])
    assert [r.value for r in recs if (r.subject, r.key) == ("user", "team")] == ([team] if team else [])
