"""The slot timeline as data: records with stored turn readings in, what leads and what is
left out back (no embedder, no store)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from memquill.model import MemoryRecord, MemoryType, Scope, Source
from memquill.retrieve.timeline import single_slot, timeline

T0 = datetime.fromisoformat("2026-01-05T10:00:00+00:00")
DAY = timedelta(days=1)
SCOPE = Scope(user="u")


def turn(text: str, day: int, reading: list[Any], event: str | None = None) -> dict[str, Any]:
    return {
        "text": text,
        "at": (T0 + day * DAY).isoformat(),
        "event": event or f"evt-{day}",
        "reading": reading,
    }


def episode(id: str, day: int, *turns: dict[str, Any]) -> MemoryRecord:
    return MemoryRecord(
        id=id,
        type=MemoryType.EPISODE,
        scope=SCOPE,
        subject="conversation",
        key=f"episode:{id}",
        content=" ".join(t["text"] for t in turns),
        confidence=0.7,
        source=Source.OBSERVED,
        evidence=[t["event"] for t in turns],
        valid_from=T0 + day * DAY,
        observed_at=T0 + day * DAY,
        created_at=T0 + day * DAY,
        updated_at=T0 + day * DAY,
        attributes={"statements": list(turns)},
    )


def record(
    id: str, key: str, value: str, day: int, evidence: list[str], subject: str = "user"
) -> MemoryRecord:
    return MemoryRecord(
        id=id,
        type=MemoryType.PREFERENCE,
        scope=SCOPE,
        subject=subject,
        key=key,
        value=value,
        content=f"The user: {value}",
        confidence=0.9,
        source=Source.EXPLICIT,
        evidence=evidence,
        valid_from=T0 + day * DAY,
        observed_at=T0 + day * DAY,
        created_at=T0 + day * DAY,
        updated_at=T0 + day * DAY,
    )


DRINK = [0.9, [["beverage", 0.8], ["favorite_food", 0.1]]]
WEAK_DRINK = [0.9, [["hobby", 0.5], ["beverage", 0.12]]]
SHELL = [0.9, [["shell", 0.9]]]


def test_a_newer_turn_than_the_slot_leads_and_the_slot_is_left_out() -> None:
    old = episode("e1", 1, turn("I drink black coffee every morning", 1, DRINK, "evt-1"))
    slot = record("r1", "beverage", "black coffee", 1, ["evt-1"])
    new = episode("e2", 9, turn("these days it's green tea for me", 9, WEAK_DRINK, "evt-9"))
    tl = timeline([old, slot, new], ("user", "beverage"), {"r1"})
    assert (
        tl.lead is not None and tl.lead.id == "e2" and tl.lead.content == "these days it's green tea for me"
    )
    assert tl.drop == {"e1", "r1"}
    kept = tl.apply([old, slot, new])
    assert [r.id for r in kept] == ["e2"] and kept[0].attributes["excerpt"] is True


def test_the_slot_leads_when_its_version_began_with_the_newest_turn() -> None:
    old = episode("e1", 1, turn("我平时喝美式", 1, DRINK, "evt-1"))
    new = episode("e2", 9, turn("最近迷上了乌龙茶", 9, DRINK, "evt-9"))
    slot = record("r2", "beverage", "乌龙茶", 9, ["evt-9"])
    tl = timeline([old, new, slot], ("user", "beverage"), {"r2"})
    assert tl.lead is None  # the slot record answers first (the pipeline ranks slots first)
    assert tl.drop == {"e1"}
    assert "e2" not in tl.drop and "r2" not in tl.drop


def test_a_restatement_merged_into_an_old_value_does_not_make_it_new() -> None:
    """A value span cut wrong from the newer turn merged into the old record: its
    ``observed_at`` moved, the start of its version did not; the newer turn leads."""
    old = episode("e1", 1, turn("改吃生酮了", 1, DRINK, "evt-1"))
    slot = record("r1", "beverage", "生酮", 1, ["evt-1", "evt-9"]).model_copy(
        update={"observed_at": T0 + 9 * DAY}
    )
    new = episode("e2", 9, turn("生酮坚持不下去了，现在就是低碳水", 9, DRINK, "evt-9"))
    tl = timeline([old, slot, new], ("user", "beverage"), {"r1"})
    assert tl.lead is not None and tl.lead.id == "e2"
    assert "r1" in tl.drop


def test_only_the_old_turns_leave_an_episode_that_says_more() -> None:
    both = episode(
        "e1",
        1,
        turn("I drink black coffee every morning.", 1, DRINK, "evt-1"),
        turn("My shell is plain bash, never bothered changing it.", 1, SHELL, "evt-2"),
    )
    new = episode("e2", 9, turn("Switched to rooibos, no caffeine for me", 9, DRINK, "evt-9"))
    tl = timeline([both, new], ("user", "beverage"), set())
    (kept,) = [r for r in tl.apply([both, new]) if r.id == "e1"]
    assert "coffee" not in kept.content and "bash" in kept.content


def test_records_made_from_an_older_statement_are_left_out() -> None:
    old = episode("e1", 1, turn("我坚持跑了一个月步，掉到78公斤了", 1, [0.9, [["weight", 0.5]]], "evt-1"))
    side = record("r9", "sport", "跑步", 1, ["evt-1"])
    unrelated = record("r8", "sport", "游泳", 2, ["evt-5"])
    new = episode("e2", 9, turn("又回到77公斤了", 9, [0.9, [["weight", 0.3]]], "evt-9"))
    tl = timeline([old, side, unrelated, new], ("user", "weight"), set())
    assert "r9" in tl.drop and "r8" not in tl.drop


def test_turns_about_someone_else_or_unsure_are_no_statement() -> None:
    mine = episode("e1", 1, turn("我平时喝美式", 1, DRINK, "evt-1"))
    wife = episode("e2", 9, turn("我老婆最近爱喝乌龙茶", 9, DRINK, "evt-9"))
    noise = episode(
        "e3", 10, turn("sounds good, let's go with that", 10, [0.0, [["beverage", 0.9]]], "evt-10")
    )
    faint = episode(
        "e4", 11, turn("我每天坐地铁上班", 11, [0.9, [["commute", 0.9], ["beverage", 0.05]]], "evt-11")
    )
    tl = timeline([mine, wife, noise, faint], ("user", "beverage"), set())
    assert tl.lead is not None and tl.lead.id == "e1"
    assert tl.drop == {"e2"}  # the wife's drink is no answer to the user's (noise and faint stay)
    assert timeline([mine, wife], ("person:wife", "beverage"), set()).lead.id == "e2"  # type: ignore[union-attr]


def test_the_asked_slot_is_a_single_valued_one_the_query_prefers() -> None:
    routed = [("user", "occupation"), ("user", "commute"), ("user", "allergy")]
    assert single_slot(routed, ["commute", "occupation"]) == ("user", "commute")
    assert single_slot(routed) == ("user", "occupation")
    assert single_slot([("user", "allergy")]) is None  # multi-valued: values coexist
    assert timeline([], None, set()).lead is None


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("组里决定把订单库迁到PostgreSQL，我负责写迁移脚本", "宋一鸣"),
        ("The team moved to Kotlin", "Marguerite"),
    ],
    ids=["zh", "en"],
)
def test_the_learned_reading_leads_only_among_the_asked_subjects_slots(text: str, name: str) -> None:
    """ "我现在直属领导是谁啊" / "who's my boss now?": the words name the manager; the router
    read the user's ``team``, which a turn states: that turn led the answer."""
    said = episode("e1", 3, turn(text, 3, [0.9, [["team", 0.9]]], "evt-3"))
    boss = record("r1", "name", name, 1, ["evt-1"], subject="person:manager")
    routed = [("person:manager", "name"), ("user", "team")]
    ids = {"name": {"r1"}}
    assert single_slot(routed, [], [said, boss], ids, first=("user", "team")) == ("person:manager", "name")
    mine = [("user", "team"), ("user", "occupation")]  # among the user's own slots the reading leads
    assert single_slot(mine, [], [said], {}, first=("user", "team")) == ("user", "team")


def test_questions_and_hypotheticals_state_no_value() -> None:
    said = episode("e1", 1, turn("我住在上海", 1, [0.9, [["city", 0.9]]], "evt-1"))
    later = [
        episode("e2", 5, turn("如果搬去深圳的话，通勤会不会很远", 5, [0.9, [["city", 0.6]]], "evt-5")),
        episode("e3", 6, turn("要不要搬到杭州？", 6, [0.9, [["city", 0.6]]], "evt-6")),
        episode("e4", 7, turn("I'm thinking about moving to Lisbon", 7, [0.9, [["city", 0.6]]], "evt-7")),
        episode("e5", 8, turn("What if we moved to Porto", 8, [0.9, [["city", 0.6]]], "evt-8")),
    ]
    tl = timeline([said, *later], ("user", "city"), set())
    assert tl.lead is not None and tl.lead.id == "e1" and not tl.drop


def test_a_turn_about_someone_named_before_is_not_the_users() -> None:
    mine = episode("e1", 1, turn("我在医院当护士", 1, [0.9, [["occupation", 0.9]]], "evt-1"))
    hers = episode("e2", 5, turn("她不再当护士长了，改去做行政", 5, [0.9, [["occupation", 0.9]]], "evt-5"))
    his = episode(
        "e3", 6, turn("He's a dispatcher now, nine to six", 6, [0.9, [["occupation", 0.9]]], "evt-6")
    )
    tl = timeline([mine, hers, his], ("user", "occupation"), set())
    assert tl.lead is not None and tl.lead.id == "e1" and tl.drop == {"e2", "e3"}
    bare = episode("e4", 8, turn("老公又换了工作，现在开车", 8, [0.9, [["occupation", 0.9]]], "evt-8"))
    asked = timeline([mine, bare], ("person:husband", "occupation"), set())
    assert asked.lead is not None and asked.lead.id == "e4" and asked.drop == {"e1"}


def test_who_one_reports_to_names_the_manager() -> None:
    old = episode("e1", 1, turn("我领导叫贺砚秋", 1, [0.9, [["name", 0.9]]], "evt-1"))
    new = episode(
        "e2", 5, turn("Thandiwe retired, so I now report to Pieter Olivier", 5, [0.9, [["name", 0.6]]])
    )
    tl = timeline([old, new], ("person:manager", "name"), set())
    assert tl.lead is not None and tl.lead.id == "e2" and tl.drop == {"e1"}


def test_an_if_about_someone_else_does_not_unsay_a_statement() -> None:
    said = episode("e1", 1, turn("Work cell is 082 417 5530 if you ever need it", 1, [0.9, [["phone", 0.9]]]))
    tl = timeline([said], ("user", "phone"), set())
    assert tl.lead is not None and tl.lead.id == "e1"


def test_a_landlord_opening_the_turn_does_not_make_the_move_theirs() -> None:
    old = episode("e1", 1, turn("我住在天通苑", 1, [0.9, [["address", 0.8]]], "evt-1"))
    new = episode(
        "e2", 5, turn("房东要卖房，只好又搬，现在住望京", 5, [0.5, [["housing", 0.5], ["address", 0.14]]])
    )
    tl = timeline([old, new], ("user", "address"), set())
    assert tl.lead is not None and tl.lead.id == "e2" and tl.drop == {"e1"}


def test_records_made_of_a_replaced_versions_turn_are_left_out_when_its_episode_is_closed() -> None:
    slot = record("r2", "diet", "正常吃", 9, ["evt-9"])
    side = record("r7", "decision:diet", "改成低碳水饮食", 5, ["evt-5"])
    tl = timeline([slot, side], ("user", "diet"), {"r2"}, replaced={"evt-5"})
    assert tl.drop == {"r7"} and tl.lead is None


def test_a_question_about_the_past_is_no_question_for_the_newest_statement() -> None:
    from memquill.retrieve.timeline import asks_history

    for q in ["我以前住在哪个城市？", "where did I live before Austin?", "when did I move to Denver?"]:
        assert asks_history(q)
    for q in ["我现在住哪个城市？", "which city am I based in these days?", "what do I usually drink now?"]:
        assert not asks_history(q)


def test_a_pronoun_turn_belongs_to_the_person_named_last_before_it() -> None:
    named = episode("e1", 1, turn("我老婆是市一医院的护士", 1, [0.9, [["occupation", 0.8]]], "evt-1"))
    hers = episode(
        "e2", 9, turn("她不再当护士了，改去医务科做行政", 9, [0.9, [["occupation", 0.8]]], "evt-9")
    )
    tl = timeline([named, hers], ("person:wife", "occupation"), set())
    assert tl.lead is not None and tl.lead.id == "e2" and tl.drop == {"e1"}
    his = episode("e3", 4, turn("My husband is a paramedic", 4, [0.9, [["occupation", 0.8]]], "evt-4"))
    now = episode("e4", 8, turn("He took a job as a dispatcher", 8, [0.9, [["occupation", 0.5]]], "evt-8"))
    tl = timeline([his, now], ("person:husband", "occupation"), set())
    assert tl.lead is not None and tl.lead.id == "e4"
    # nobody named before: still no statement of the user's own slot
    assert timeline([now], ("user", "occupation"), set()).lead is None


def test_a_changing_turn_read_as_a_neighbour_still_states_the_asked_attribute() -> None:
    old = episode("e1", 1, turn("我在携程做后端", 1, [0.9, [["employer", 0.7]]], "evt-1"))
    weak = [0.9, [["venue", 0.12], ["city", 0.1], ["team", 0.08], ["employer", 0.04]]]
    moved = episode("e2", 5, turn("携程那边没待多久，现在跳到同程了", 5, weak, "evt-5"))
    tl = timeline([old, moved], ("user", "employer"), set())
    assert tl.lead is not None and tl.lead.id == "e2" and tl.drop == {"e1"}
    # "now" alone is no change, and a reading below the floor is none
    said = episode("e3", 5, turn("我的周报现在都交给樊总", 5, weak, "evt-5"))
    assert timeline([old, said], ("user", "employer"), set()).lead.id == "e1"  # type: ignore[union-attr]
    faint = [0.9, [["venue", 0.5], ["employer", 0.01]]]
    gone = episode("e4", 5, turn("Left Dell, I'm at Zillow now", 5, faint, "evt-5"))
    assert timeline([old, gone], ("user", "employer"), set()).lead.id == "e1"  # type: ignore[union-attr]


def test_an_empty_slot_gives_way_to_the_questions_second_reading() -> None:
    title = episode("e1", 1, turn("新公司给的职位是质量负责人", 1, [0.9, [["occupation", 0.6]]], "evt-1"))
    routed = [("user", "name"), ("user", "employer")]
    read = ["name", "occupation", "employer"]
    assert single_slot(routed, read, [title], {}, also=["name", "occupation"]) == ("user", "occupation")
    # nothing states either: the routed reading stays
    assert single_slot(routed, read, [], {}, also=["name", "occupation"]) == ("user", "name")
    assert single_slot(routed, read, [title], {}) == ("user", "name")  # no second reading offered


def test_hits_naming_only_a_value_older_statements_named_leave() -> None:
    old = episode("e1", 1, turn("My manager is Camila Restrepo, very organised", 1, [0.9, [["name", 0.9]]]))
    new = episode(
        "e2", 5, turn("Andrés got promoted and now my manager is Lucía Ospina", 5, [0.9, [["name", 0.9]]])
    )
    aside = episode("e3", 6, turn("Camila Restrepo sent me her slides", 6, [0.9, [["hobby", 0.9]]]))
    both = episode("e4", 7, turn("Lucía Ospina and Camila Restrepo met today", 7, [0.9, [["hobby", 0.9]]]))
    tl = timeline([old, new, aside, both], ("person:manager", "name"), set())
    assert "Camila Restrepo" in tl.old and "Lucía Ospina" in tl.now
    kept = {r.id for r in tl.apply([old, new, aside, both])}
    assert kept == {"e2", "e4"}  # e1 an older statement, e3 names only the old value
    zh_old = episode("e5", 1, turn("我领导叫贺砚秋，做事雷厉风行", 1, [0.9, [["name", 0.9]]]))
    zh_new = episode("e6", 5, turn("我领导换成了甘雨桐", 5, [0.9, [["name", 0.9]]]))
    zh_aside = episode("e7", 6, turn("贺砚秋升总监了", 6, [0.9, [["event_time", 0.9]]]))
    tl = timeline([zh_old, zh_new, zh_aside], ("person:manager", "name"), set())
    assert {r.id for r in tl.apply([zh_old, zh_new, zh_aside])} == {"e6"}


CITY = [0.9, [["city", 0.9]]]
ELSE = [0.9, [["hobby", 0.9]]]


@pytest.mark.parametrize(
    ("newest", "passing", "current", "left"),
    [
        (
            "Found someone to take over our Pilsen lease, and we moved to Evanston last weekend",
            "We're in Pilsen now, boxes everywhere",
            "Evanston",
            "Pilsen",
        ),
        ("厦门的房子退租了，上个月搬到了合肥", "厦门这两天一直下雨", "合肥", "厦门"),
    ],
)
def test_a_value_named_before_the_change_the_newest_statement_states_is_what_it_left(
    newest: str, passing: str, current: str, left: str
) -> None:
    """Only the turn that moved names the old place as a statement of the slot; the turn
    that named it in passing was read as something else, yet answers with the old place."""
    aside = episode("e1", 1, turn(passing, 1, ELSE))
    moved = episode("e2", 5, turn(newest, 5, CITY))
    tl = timeline([aside, moved], ("user", "city"), set())
    assert tl.now == {current} and left in tl.old
    assert {r.id for r in tl.apply([aside, moved])} == {"e2"}


@pytest.mark.parametrize(
    ("newest", "near"),
    [
        ("We moved to Evanston last month, just north of Chicago", "Chicago"),
        ("上个月搬到了萧山，离杭州市区不远", "杭州"),
    ],
)
def test_a_value_named_after_the_change_stays_current(newest: str, near: str) -> None:
    """A place named after the new one may be where it lies: no old value."""
    moved = episode("e1", 5, turn(newest, 5, CITY))
    aside = episode("e2", 6, turn(f"{near} has great food", 6, ELSE))
    tl = timeline([moved, aside], ("user", "city"), set())
    assert any(near in v for v in tl.now) and not tl.old
    assert {r.id for r in tl.apply([moved, aside])} == {"e1", "e2"}


@pytest.mark.parametrize(
    ("held", "later", "reading", "leads"),
    [
        (
            "浙江大学",
            "对了，研一期末考机器学习和矩阵论，帮我排个复习计划吧。",
            [0.4, [["school", 0.17]]],
            False,
        ),
        ("浙江大学", "下学期转到复旦大学了，手续刚办完。", [0.9, [["school", 0.3]]], True),
        ("支付组", "最后还是去了风控组，第一周，规则引擎的代码看得头大。", [0.4, [["school", 0.75]]], True),
        (
            "Ohio State",
            "finals are machine learning and linear algebra, help me plan revision",
            [0.4, [["school", 0.17]]],
            False,
        ),
    ],
)
def test_a_faint_turn_naming_no_value_of_the_kind_does_not_lead_a_slot_that_holds_one(
    held: str, later: str, reading: list[Any], leads: bool
) -> None:
    """A newer turn read faintly as a name-valued attribute (a school) leads the slot's record
    only when it names such a value, reads the attribute clearly, or says a change."""
    rec = record("r1", "school", held, 1, ["evt-1"])
    ep = episode("e2", 5, turn(later, 5, reading))
    tl = timeline([rec, ep], ("user", "school"), {"r1"})
    assert (tl.lead is not None) is leads
    assert ("r1" in {r.id for r in tl.apply([rec, ep])}) is not leads


def test_free_text_values_count_only_as_short_chinese_spans() -> None:
    old = episode("e1", 1, turn("I take the U-Bahn to work", 1, [0.9, [["commute", 0.9]]]))
    new = episode("e2", 5, turn("Since the move I drive to the office", 5, [0.9, [["commute", 0.9]]]))
    aside = episode("e3", 6, turn("work was busy today", 6, [0.9, [["hobby", 0.9]]]))
    tl = timeline([old, new, aside], ("user", "commute"), set())
    assert "e3" in {r.id for r in tl.apply([old, new, aside])}  # "work" is no value


def test_a_long_turn_is_read_clause_by_clause_too() -> None:
    from memquill.write.covered import clauses

    assert clauses("Vivaldi's sync broke twice, so I'm on Floorp now") == [
        "Vivaldi's sync broke twice",
        "so I'm on Floorp now",
    ]
    assert clauses("远程了半年，现在又回办公室坐班了，公司在酒仙桥租了新楼层") == [
        "远程了半年",
        "现在又回办公室坐班了",
        "公司在酒仙桥租了新楼层",
    ]
    assert clauses("ugh, long day") == []  # one clause worth reading: the turn is read whole
    assert clauses("我现在住在苏州") == []


def test_a_clause_reading_states_what_the_whole_turn_is_not_read_as() -> None:
    old = episode("e1", 1, turn("My browser is Vivaldi", 1, [0.9, [["browser", 0.8]]], "evt-1"))
    whole = [0.4, [["medical_condition", 0.5], ["hobby", 0.2]]]  # the story read as a complaint
    story = turn("Vivaldi's sync broke twice, so I'm on Floorp now", 5, whole, "evt-5")
    assert timeline([old, episode("e2", 5, story)], ("user", "browser"), set()).lead.id == "e1"  # type: ignore[union-attr]
    story["clauses"] = [0.8, [["browser", 0.6], ["medical_condition", 0.3]]]
    tl = timeline([old, episode("e2", 5, story)], ("user", "browser"), set())
    assert tl.lead is not None and tl.lead.id == "e2" and tl.drop == {"e1"}
    # a clause reading the attribute weakly does not make a statement of an unchanged turn
    zh = turn("周末去爬山了，累死了", 5, [0.3, [["hobby", 0.6]]], "evt-6")
    zh["clauses"] = [0.5, [["hobby", 0.5], ["browser", 0.05]]]
    assert timeline([old, episode("e3", 5, zh)], ("user", "browser"), set()).lead.id == "e1"  # type: ignore[union-attr]
    # nor does a faint clause reading of a turn saying a change about something else
    coffee = turn(
        "I don't do flat whites anymore, so it's chicory coffee now", 6, [0.9, [["beverage", 0.99]]]
    )
    coffee["clauses"] = [0.9, [["beverage", 0.95], ["favorite_food", 0.6], ["browser", 0.2]]]
    assert timeline([old, episode("e4", 6, coffee)], ("user", "browser"), set()).lead.id == "e1"  # type: ignore[union-attr]


def test_a_guessed_slot_is_asked_only_when_something_states_it() -> None:
    title = episode("e1", 1, turn("新公司给的职位是质量负责人", 1, [0.9, [["occupation", 0.6]]], "evt-1"))
    guessed = [("user", "editor"), ("user", "occupation")]
    assert single_slot(guessed, ["editor", "occupation"], [title], {}, stated=True) == ("user", "occupation")
    assert single_slot([("user", "editor")], ["editor"], [title], {}, stated=True) is None
    assert single_slot([("user", "editor")], ["editor"], [], {}, stated=True) is None


CITY = [0.9, [["city", 0.8]]]


def test_a_slot_record_made_only_from_a_supposing_turn_is_no_answer() -> None:
    """zh + en: "如果…" / "If we ever…" states no value even when a record was made of it."""
    for was, supposed, now, value in [
        (
            "Writing from my desk in Bengaluru",
            "If we ever went back to Bengaluru I'd live near Cubbon Park",
            "Pune's weather is such a relief, our flat in Baner is lovely",
            "Bengaluru",
        ),
        ("我住在上海，每天挤地铁", "如果哪天回上海的话，我想住徐汇", "搬到杭州以后每天骑车去西湖边", "上海"),
    ]:
        old = episode("e1", 1, turn(was, 1, CITY, "evt-1"))
        hypo = episode("e2", 5, turn(supposed, 9, CITY, "evt-9"))
        slot = record("r1", "city", value, 9, ["evt-9"])
        new = episode("e3", 6, turn(now, 6, CITY, "evt-6"))
        tl = timeline([old, hypo, slot, new], ("user", "city"), {"r1"})
        assert tl.lead is not None and tl.lead.id == "e3"
        assert "r1" in tl.drop and "e1" in tl.drop


CITY = [0.9, [["city", 0.8]]]


def test_a_turn_recalling_an_earlier_value_never_leads_and_its_value_is_old() -> None:
    for was, now, recall in [
        (
            "I live in Graz",
            "Moved to Vienna for the new job",
            "Back when I lived in Graz I cycled everywhere",
        ),
        ("我住在成都", "搬到杭州了，租了个小两居", "以前在成都的时候天天吃火锅"),
    ]:
        first = episode("e1", 1, turn(was, 1, CITY, "evt-1"))
        moved = episode("e2", 5, turn(now, 5, CITY, "evt-5"))
        later = episode("e3", 9, turn(recall, 9, CITY, "evt-9"))
        tl = timeline([first, moved, later], ("user", "city"), set())
        assert tl.lead is not None and tl.lead.id == "e2"
        assert {r.id for r in tl.apply([first, moved, later])} == {"e2"}


def test_a_recalled_value_said_with_how_things_are_now_is_a_statement() -> None:
    first = episode("e1", 1, turn("我住在成都", 1, CITY, "evt-1"))
    both = episode("e2", 9, turn("以前住成都，现在搬到杭州了", 9, CITY, "evt-9"))
    tl = timeline([first, both], ("user", "city"), set())
    assert tl.lead is not None and tl.lead.id == "e2"


def test_a_hit_naming_an_older_value_in_the_other_language_leaves() -> None:
    old = episode("e1", 1, turn("I live in Beijing, near the third ring road", 1, CITY, "evt-1"))
    new = episode("e2", 5, turn("Moved to Tianjin last month, the flat is bigger", 5, CITY, "evt-5"))
    aside = episode("e3", 6, turn("practising writing 北京 for the school forms", 6, [0.9, [["hobby", 0.9]]]))
    tl = timeline([old, new, aside], ("user", "city"), set())
    assert {r.id for r in tl.apply([old, new, aside])} == {"e2"}


CITY = [0.9, [["city", 0.85]]]
FOOD = [0.9, [["favorite_food", 0.6], ["weight", 0.3]]]  # the city is nowhere in its reading
SPORT = [0.9, [["sport", 0.7], ["hobby", 0.2]]]


def test_an_older_turn_naming_a_place_in_passing_leaves_a_city_answer() -> None:
    first = episode("e1", 1, turn("我住在南京", 1, CITY, "evt-1"))
    aside = episode("e2", 5, turn("无锡这边的小笼包真不错，来了一个月胖了两斤", 5, FOOD, "evt-5"))
    new = episode("e3", 9, turn("我搬到苏州了", 9, CITY, "evt-9"))
    tl = timeline([first, aside, new], ("user", "city"), set())
    assert tl.lead is not None and tl.lead.id == "e3"
    assert {"e1", "e2"} <= tl.drop


def test_a_recall_newer_than_the_newest_statement_leaves_whatever_its_reading() -> None:
    now = episode("e1", 1, turn("I live in Porto now", 1, CITY, "evt-1"))
    recall = episode("e2", 9, turn("Back in Lisbon I used to surf every weekend", 9, SPORT, "evt-9"))
    tl = timeline([now, recall], ("user", "city"), set())
    assert tl.lead is not None and tl.lead.id == "e1"
    assert "e2" in tl.drop


def test_a_distant_runner_up_reading_states_nothing() -> None:
    # city 0.80 outweighs employer 0.11: the turn is about the city, not the employer
    job = episode("e1", 1, turn("I work at Ferrous Labs", 1, [0.9, [["employer", 0.9]]], "evt-1"))
    city = [0.9, [["city", 0.8], ["employer", 0.11]]]
    aside = episode("e2", 9, turn("Still getting used to the trams here in Graz", 9, city, "evt-9"))
    tl = timeline([job, aside], ("user", "employer"), set())
    assert tl.lead is not None and tl.lead.id == "e1"


def test_a_recall_is_current_only_when_a_present_clause_is_about_the_attribute() -> None:
    from memquill.retrieve.timeline import recalls

    elsewhere = {
        "text": "以前坐国航的时候老是延误，现在想想都头疼",
        "parts": [["以前坐国航的时候老是延误", ["airline"]], ["现在想想都头疼", ["medical_condition"]]],
    }
    about = {
        "text": "以前住成都，如今杭州",
        "parts": [["以前住成都", ["city"]], ["如今杭州", ["city", "address"]]],
    }
    unsplit = {"text": "I used to take the bus, now I cycle"}
    assert recalls(elsewhere, "airline")
    assert not recalls(about, "city")
    assert not recalls(unsplit, "commute")  # no clause readings kept: the present word says now
    assert not recalls({"text": "Back when I lived in Graz I cycled; I moved to Vienna"}, "city")


def test_a_turn_naming_no_value_of_a_named_kind_states_none_of_it() -> None:
    # the classifier read a hobby turn as ``employer``; it names no organisation: no statement
    job = episode("e1", 1, turn("I work at Ferrous Labs", 1, [0.9, [["employer", 0.9]]], "evt-1"))
    misread = [0.9, [["employer", 0.3], ["duration", 0.2]]]
    chat = episode("e2", 9, turn("Finally finished a jigsaw puzzle, took three weeks", 9, misread, "evt-9"))
    tl = timeline([job, chat], ("user", "employer"), set())
    assert tl.lead is not None and tl.lead.id == "e1" and "e2" not in tl.drop
    # a Chinese turn is not judged by its typed spans: they miss most Chinese names
    zh_job = [0.9, [["airline", 0.9]]]
    old = episode("e3", 1, turn("出差一般坐东航", 1, zh_job, "evt-1"))
    new = episode("e4", 9, turn("这半年出差都改坐海南航空了", 9, zh_job, "evt-9"))
    tl = timeline([old, new], ("user", "airline"), set())
    assert tl.lead is not None and tl.lead.id == "e4"


COMMUTE = [0.9, [["commute", 0.7], ["vehicle", 0.1]]]
WEAK_COMMUTE = [0.6, [["commute", 0.25], ["cost", 0.2]]]


def minutes(text: str, day: int, minute: int, reading: list[Any], event: str) -> dict[str, Any]:
    t = turn(text, day, reading, event)
    return {**t, "at": (T0 + day * DAY + timedelta(minutes=minute)).isoformat()}


def test_a_follow_up_in_the_same_sitting_does_not_take_the_statements_place() -> None:
    old = episode("e1", 1, turn("I take the train to work", 1, COMMUTE, "evt-1"))
    said = minutes("Scooter got stolen, so now I carpool with two coworkers", 9, 0, COMMUTE, "evt-9")
    follow = minutes("Mileage-based, makes sense.", 9, 6, WEAK_COMMUTE, "evt-10")
    new = episode("e2", 9, said, follow)
    tl = timeline([old, new], ("user", "commute"), set())
    assert tl.lead is not None and "carpool" in tl.lead.content
    zh_said = minutes("电动车骑不过去了，现在每天坐公司班车", 9, 0, COMMUTE, "evt-9")
    zh_follow = minutes("通勤路上有什么播客推荐，科技类的", 9, 4, WEAK_COMMUTE, "evt-10")
    tl = timeline([old, episode("e2", 9, zh_said, zh_follow)], ("user", "commute"), set())
    assert tl.lead is not None and "班车" in tl.lead.content


def test_a_later_turn_of_the_same_sitting_leads_when_it_says_a_change() -> None:
    said = minutes("I take the train to work", 9, 0, COMMUTE, "evt-9")
    change = minutes("actually switched to cycling from today", 9, 6, WEAK_COMMUTE, "evt-10")
    tl = timeline([episode("e2", 9, said, change)], ("user", "commute"), set())
    assert tl.lead is not None and tl.lead.content == change["text"]
    zh_said = minutes("我每天坐地铁上班", 9, 0, COMMUTE, "evt-9")
    zh_change = minutes("从今天起改成骑车了", 9, 6, WEAK_COMMUTE, "evt-10")
    tl = timeline([episode("e2", 9, zh_said, zh_change)], ("user", "commute"), set())
    assert tl.lead is not None and tl.lead.content == zh_change["text"]


def test_a_short_acknowledgement_never_leads_a_statement_of_another_sitting() -> None:
    # (a drink is named in both: a beverage statement names a drink, ``value_kinds``)
    keto = episode("e1", 3, turn("my nutritionist put me on green tea this month", 3, DRINK, "evt-3"))
    ack = episode("e2", 9, turn("Perfect, green tea.", 9, DRINK, "evt-9"))
    tl = timeline([keto, ack], ("user", "beverage"), set())
    assert tl.lead is not None and tl.lead.id == "e1"
    assert "e2" not in tl.drop
    zh = episode("e1", 3, turn("最近改喝柠檬茶了", 3, DRINK, "evt-3"))
    zh_ack = episode("e2", 9, turn("好的，就燕麦奶吧", 9, DRINK, "evt-9"))
    tl = timeline([zh, zh_ack], ("user", "beverage"), set())
    assert tl.lead is not None and tl.lead.id == "e1"


def test_an_acknowledgement_with_the_users_own_words_is_a_statement() -> None:
    from memquill.retrieve.timeline import reply

    assert reply("Watermelon mint, yes.") and reply("明白，就这个")
    assert not reply("OK, I'm in Berlin now") and not reply("好的，我现在改喝乌龙茶了")
    assert not reply("Sounds good, switched to Helix") and not reply("Flow it is.")


LANG = [0.9, [["programming_language", 0.88], ["stack:language", 0.05]]]
CITY = [0.9, [["city", 0.8], ["hobby", 0.05]]]


def test_an_older_statement_followed_by_a_question_still_leaves_the_answers_company() -> None:
    old = episode(
        "e1",
        1,
        turn("Most of my day is Python, a Django monolith. Any tips for finding dead code?", 1, LANG),
    )
    new = episode("e2", 9, turn("Since the rewrite I'm in Kotlin full-time.", 9, LANG, "evt-9"))
    slot = record("r1", "programming_language", "Kotlin", 9, ["evt-9"])
    tl = timeline([old, new, slot], ("user", "programming_language"), {"r1"})
    assert [r.id for r in tl.apply([old, new, slot])] == ["e2", "r1"]
    zh_old = episode("e1", 1, turn("我在厦门住了三年了，你说厦门的房价还会跌吗", 1, CITY))
    zh_new = episode("e2", 9, turn("上个月搬到合肥了，还在适应", 9, CITY, "evt-9"))
    tl = timeline([zh_old, zh_new], ("user", "city"), set())
    assert tl.lead is not None and tl.lead.id == "e2"
    assert [r.id for r in tl.apply([zh_old, zh_new])] == ["e2"]


def test_a_question_or_supposition_in_every_clause_still_says_nothing() -> None:
    from memquill.retrieve.timeline import asked

    assert asked("要不要换成 Arc？", by_clause=True) and asked("如果搬去深圳的话，通勤会好点", by_clause=True)
    assert asked("thinking about switching to Neovim, what do you think?", by_clause=True)
    assert not asked("Most of my day is Python. Any tips?", by_clause=True)
    assert asked("Most of my day is Python. Any tips?")  # such a turn never leads


DIET = [0.9, [["diet", 0.8], ["favorite_food", 0.1]]]


def test_a_request_to_the_assistant_reading_the_attribute_never_leads() -> None:
    keto = episode("e1", 3, turn("my nutritionist put me on keto, so no rice or bread", 3, DIET, "evt-3"))
    ask = turn("Rainy day. Give me something I can cook with eggs, kale and feta.", 9, DIET, "evt-9")
    ask["parts"] = [
        ["Give me something I can cook with eggs", ["favorite_food", "hobby", "wishlist"]],
        ["kale and feta", ["favorite_food", "diet", "cuisine"]],
    ]
    tl = timeline([keto, episode("e2", 9, ask)], ("user", "diet"), set())
    assert tl.lead is not None and tl.lead.id == "e1"
    zh_old = episode("e1", 3, turn("上个月搬到杭州了，还在适应", 3, CITY, "evt-3"))
    zh_ask = turn("帮我查查成都到重庆的高铁。周末想去玩", 9, CITY, "evt-9")
    zh_ask["parts"] = [
        ["帮我查查成都到重庆的高铁", ["city", "travel", "commute"]],
        ["周末想去玩", ["travel", "hobby", "plan"]],
    ]
    tl = timeline([zh_old, episode("e2", 9, zh_ask)], ("user", "city"), set())
    assert tl.lead is not None and tl.lead.id == "e1"


def test_a_statement_beside_a_request_still_leads() -> None:
    old = episode("e1", 3, turn("I'm vegetarian", 3, DIET, "evt-3"))
    new = turn("I went keto last month. Give me a breakfast idea.", 9, DIET, "evt-9")
    new["parts"] = [
        ["I went keto last month", ["diet", "hobby", "x"]],
        ["Give me a breakfast idea", ["diet", "y", "z"]],
    ]
    tl = timeline([old, episode("e2", 9, new)], ("user", "diet"), set())
    assert tl.lead is not None and tl.lead.id == "e2"
    zh_old = episode("e1", 3, turn("我吃素", 3, DIET, "evt-3"))
    zh_new = turn("上个月开始生酮了。帮我想个早餐", 9, DIET, "evt-9")
    zh_new["parts"] = [["上个月开始生酮了", ["diet", "x", "y"]], ["帮我想个早餐", ["diet", "y", "z"]]]
    tl = timeline([zh_old, episode("e2", 9, zh_new)], ("user", "diet"), set())
    assert tl.lead is not None and tl.lead.id == "e2"


EMAIL = [0.9, [["email", 0.8], ["name", 0.05]]]
WEAK_EMAIL = [0.9, [["email", 0.4], ["name", 0.2]]]


def test_a_correction_in_the_same_sitting_is_no_follow_up() -> None:
    said = minutes("邮箱我换了，以后用 linqiao@fastmail.com", 9, 0, EMAIL, "evt-9")
    fix = minutes("抱歉，邮箱写错了，中间少了个点，是 lin.qiao@fastmail.com", 9, 4, WEAK_EMAIL, "evt-10")
    tl = timeline([episode("e2", 9, said, fix)], ("user", "email"), set())
    assert tl.lead is not None and "lin.qiao@" in tl.lead.content
    en_said = minutes("New address: samrivera@proton.me", 9, 0, EMAIL, "evt-9")
    en_fix = minutes("Sorry, typo there, it's sam.rivera@proton.me", 9, 4, WEAK_EMAIL, "evt-10")
    tl = timeline([episode("e2", 9, en_said, en_fix)], ("user", "email"), set())
    assert tl.lead is not None and "sam.rivera@" in tl.lead.content


def test_the_learned_routers_slot_is_asked_before_the_questions_attribute_reading() -> None:
    """ "best number to text me on?" is read as ``contact_channel`` and a filler request was
    misread as one: the router's ``phone`` is asked while anything states it (zh: "我早上咋去公司
    来着" read as ``employer``, routed to ``commute``)."""
    misread = episode(
        "e1", 5, turn("Write a two-line birthday message.", 5, [0.9, [["contact_channel", 0.6]]], "evt-1")
    )
    number = episode(
        "e2", 3, turn("New SIM, new number: 186 0217 5530.", 3, [0.9, [["phone", 0.7]]], "evt-2")
    )
    routed = [("user", "phone"), ("user", "contact_channel")]
    read = ["contact_channel", "phone"]
    assert single_slot(routed, read, [misread, number], {}) == ("user", "contact_channel")
    assert single_slot(routed, read, [misread, number], {}, first=("user", "phone")) == ("user", "phone")
    # nothing states the router's slot: the reading settles it as before
    assert single_slot(routed, read, [misread], {}, first=("user", "phone")) == ("user", "contact_channel")
    moved = episode("e3", 5, turn("公司被收购了，邮箱后缀全换了", 5, [0.9, [["employer", 0.6]]], "evt-3"))
    bike = episode("e4", 2, turn("现在每天骑自行车上班", 2, [0.9, [["commute", 0.7]]], "evt-4"))
    zh = [("user", "commute")]
    assert single_slot(zh, ["employer", "commute"], [moved, bike], {}, also=["employer"]) == (
        "user",
        "employer",
    )
    got = single_slot(
        zh, ["employer", "commute"], [moved, bike], {}, also=["employer"], first=("user", "commute")
    )
    assert got == ("user", "commute")


@pytest.mark.parametrize(
    ("moved", "ended", "current", "gone"),
    [
        (
            "最后还是搬去了上海，总算安顿下来了。",
            "深圳的房子已经退了，一堆东西都寄到这儿来了。",
            "上海",
            "深圳",
        ),
        (
            "We finally moved to Denver, the new place is great.",
            "We moved out of Portland for good.",
            "Denver",
            "Portland",
        ),
    ],
)
def test_a_turn_naming_a_value_only_as_ended_does_not_lead(
    moved: str, ended: str, current: str, gone: str
) -> None:
    """A later turn that only says the old place ended ("深圳的房子已经退了") states no current
    value: the move before it stays the newest statement."""
    first = episode("e1", 1, turn(moved, 1, CITY))
    later = episode("e2", 3, turn(ended, 3, CITY))
    tl = timeline([first, later], ("user", "city"), set())
    assert tl.lead is None or tl.lead.id == "e1"
    assert any(current in v for v in tl.now) and gone not in tl.now


@pytest.mark.parametrize(
    ("held", "later"),
    [
        ("深圳", "算了我还是不折腾了，先在这边干满一年再说"),
        ("Denver", "honestly I'm staying here for another year, the commute is fine"),
    ],
)
def test_a_turn_pointing_at_the_place_held_does_not_lead(held: str, later: str) -> None:
    """ "这边" / "here" is the place held: however clearly the turn reads as the city, it
    names no new one and the slot's record answers."""
    rec = record("r1", "city", held, 1, ["evt-1"])
    ep = episode("e2", 5, turn(later, 5, [0.9, [["city", 0.63]]]))
    tl = timeline([rec, ep], ("user", "city"), {"r1"})
    assert tl.lead is None and "r1" in {r.id for r in tl.apply([rec, ep])}
