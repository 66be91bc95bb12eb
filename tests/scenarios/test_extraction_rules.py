"""The deterministic bilingual rules path, end to end through the public API (DESIGN §4
rules 2–4 and 8): what a turn becomes, when it becomes visible, and how it is worded.

The fixed clock is 2026-11-29 10:00 in Shanghai, a Sunday (tests/conftest.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from memquill import FixedClock, Memory
from memquill.model import MemoryRecord, MemoryType, Polarity

SH = ZoneInfo("Asia/Shanghai")
SUNDAY = "2026-11-29T02:00:00+00:00"  # 10:00 Sunday in Shanghai
MONDAY = "2026-11-30T02:00:00+00:00"  # 10:00 Monday in Shanghai
LATE_SUNDAY_UTC = "2026-11-29T23:30:00+00:00"  # already 07:30 Monday in Shanghai


def records(mem: Memory, **scope: object) -> list[MemoryRecord]:
    return mem.records(statuses=None, **{"user": "u", **scope})


def one(mem: Memory, type_: MemoryType | None = None, **scope: object) -> MemoryRecord:
    found = [r for r in records(mem, **scope) if type_ is None or r.type is type_]
    assert len(found) == 1, [(r.type, r.key, r.content) for r in found]
    return found[0]


def by_key(mem: Memory, key: str, **scope: object) -> MemoryRecord:
    found = [r for r in records(mem, **scope) if r.key == key]
    assert len(found) == 1, [(r.key, r.content) for r in records(mem, **scope)]
    return found[0]


def local_day(dt: datetime | None) -> str:
    assert dt is not None
    return dt.astimezone(SH).date().isoformat()


def hot_hit(mem: Memory, query: str, text: str, **kw: Any) -> MemoryRecord:
    """Add a turn and search at once — no flush(): read-your-writes on the hot path."""
    result = mem.add(text, user="u", session="s1", **kw)
    assert result.written, f"nothing written on the hot path for {text!r}"
    hits = mem.search(query, user="u", session="s1")
    mine = [h.memory for h in hits if h.memory.id in result.written]
    assert mine, f"{text!r} not visible to the next search"
    return mine[0]


# --- rule 2: not every event is a memory -----------------------------------------------


@pytest.mark.parametrize(
    "text", ["好的，谢谢", "ok thanks!", "哈哈哈哈", "👍👍", "你好呀~", "sounds good, thanks!"]
)
def test_filler_produces_nothing_and_says_why(mem: Memory, text: str) -> None:
    result = mem.add(text, user="u", session="s1")
    assert result.skipped and not result.written
    mem.flush()
    mem.end_session(user="u", session="s1")
    mem.flush()
    assert [r for r in records(mem, session="s1") if r.type is not MemoryType.EPISODE] == []


@pytest.mark.parametrize(
    "text", ["查一下今天的天气", "what is 15% of 80?", "帮我把这句话翻译成英文：今天很开心", "tell me a joke"]
)
def test_one_off_requests_produce_nothing(mem: Memory, text: str) -> None:
    assert mem.add(text, user="u").skipped == "one-off request"
    mem.flush()
    assert records(mem) == []


@pytest.mark.parametrize(
    ("text", "word", "kept"),
    [
        ("休息日最爱去白云山徒步，有没有人少点的路线？", "白云山", True),
        ("给我发消息用大白话就好，清清楚楚的中文，不要夹英文术语", "大白话", True),
        ("给我妈治乳腺癌借了10万的贷款，现在工资一大半都拿去还了", "乳腺癌", True),
        ("My dad just had a knee replacement, so what soft foods can I cook for him?", "knee", True),
        ("Find a gift for my mum, she turns 70 and just retired from nursing", "nursing", True),
        ("帮我写一首诗，关于秋天的，要押韵", "秋天", False),
        ("Write a haiku about Mondays, make it funny", "Mondays", False),
    ],
)
def test_a_turn_that_says_something_beside_its_request_is_remembered(
    mem: Memory, text: str, word: str, kept: bool
) -> None:
    """Chinese leaves the speaker unsaid and "给我妈" is "for my mother", not "give me": each
    of the first three turns was taken for a one-off request and kept in no memory at all
    (the event log only), though it states a hobby, a standing style and a debt."""
    mem.add(text, user="u", session="s1")
    mem.end_session(user="u", session="s1")
    mem.flush()
    assert any(word in r.content for r in records(mem)) is kept


@pytest.mark.parametrize(
    "text",
    [
        "如果我中了彩票，我就辞职去环游世界",
        "if I won the lottery I'd buy an island",
        "我是秦始皇，快给我打钱，哈哈开玩笑的",
        "I'm actually a cat, just kidding",
    ],
)
def test_jokes_and_hypotheticals_never_become_facts(mem: Memory, text: str) -> None:
    assert mem.add(text, user="u").skipped in ("hypothetical", "joke")
    mem.flush()
    assert records(mem) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("我叫党思雨，党是那个姓，不少人第一次听都以为我开玩笑。", "党思雨"),
        ("My name is Odalys Quint, people always think I'm kidding when I say it", "Odalys Quint"),
    ],
)
def test_joking_said_of_others_is_content_not_a_joke(mem: Memory, text: str, value: str) -> None:
    """The joke gate is for the speaker marking their own turn ("…开玩笑的", "just kidding");
    "everyone thinks I'm kidding" reports others, and the turn was lost whole."""
    assert mem.add(text, user="u").skipped == ""
    mem.flush()
    assert any(r.key == "name" and r.value == value for r in records(mem)), [
        (r.key, r.value) for r in records(mem)
    ]


@pytest.mark.parametrize(
    ("text", "kept", "taken_back"),
    [
        (
            "Biscuit (beagle) and Juno (total mutt) just destroyed a couch cushion together. "
            "Two dogs was a mistake. Kidding. Mostly.",
            "Juno",
            "mistake",
        ),
        ("我家两只猫，橘子和年糕，天天打架。养两只真是失误。开玩笑的。", "年糕", "失误"),
    ],
)
def test_a_joke_takes_back_its_own_sentence_not_the_turn(
    mem: Memory, text: str, kept: str, taken_back: str
) -> None:
    """The turn was dropped whole as a joke, and the two pets it names with it: the marker
    ("Kidding.", "开玩笑的。") takes back the sentence before it."""
    assert mem.add(text, user="u", session="s1").skipped == ""
    mem.end_session(user="u", session="s1")
    mem.flush()
    said = " ".join(r.content for r in records(mem))
    assert kept in said and taken_back not in said


def test_a_question_about_a_preference_is_not_a_preference(mem: Memory) -> None:
    mem.add("你还记得我喜欢喝什么吗？", user="u")
    mem.flush()
    assert records(mem) == []


def test_filler_around_a_fact_does_not_hide_it(mem: Memory) -> None:
    rec = hot_hit(mem, "花生 过敏", "哈哈，我对花生过敏")
    assert rec.key == "allergy" and "过敏" in rec.content


# --- rule 3: explicit requests and corrections are visible at once ---------------------


@pytest.mark.parametrize(
    ("text", "query", "key", "needle"),
    [
        ("记住，我的邮箱是 zhang.wei@example.com", "邮箱", "email", "zhang.wei@example.com"),
        (
            "Remember that the staging database lives at db-staging.internal",
            "staging database",
            "note:",
            "db-staging.internal",
        ),
    ],
)
def test_explicit_request_is_searchable_without_flush(
    mem: Memory, text: str, query: str, key: str, needle: str
) -> None:
    rec = hot_hit(mem, query, text)
    assert rec.key.startswith(key) and needle in rec.content
    assert rec.attributes.get("explicit") is True and rec.confidence >= 0.9


def test_reminder_keeps_its_absolute_date(mem: Memory) -> None:
    rec = hot_hit(mem, "房租", "记得提醒我后天给房东转房租")
    assert rec.key.startswith("reminder:")
    assert "2026年12月1日" in rec.content and "后天" not in rec.content
    assert local_day(rec.when_start) == "2026-12-01"


def test_english_reminder_keeps_its_absolute_date(mem: Memory) -> None:
    rec = hot_hit(mem, "call the bank", "Remind me to call the bank tomorrow morning")
    assert "2026-11-30" in rec.content and "tomorrow" not in rec.content
    assert rec.content.startswith("Remind the user")


def test_correction_is_hot_and_marked(mem: Memory) -> None:
    rec = hot_hit(mem, "奶茶", "其实我不喜欢喝奶茶")
    assert rec.polarity is Polarity.NEGATIVE and rec.attributes.get("correction") is True
    assert (rec.key, rec.value) == ("beverage", "奶茶")


# --- preferences: first clear signal, negation never dropped ----------------------------


def test_negative_preference_zh_is_hot_and_keeps_the_negation(mem: Memory) -> None:
    rec = hot_hit(mem, "咖啡", "我不喝咖啡，别给我推荐咖啡")
    assert (rec.type, rec.key, rec.polarity) == (MemoryType.PREFERENCE, "beverage", Polarity.NEGATIVE)
    assert "不喝咖啡" in rec.content and "我" not in rec.content


def test_stop_suggesting_is_a_negative_preference(mem: Memory) -> None:
    rec = hot_hit(mem, "coffee", "Stop suggesting coffee to me.")
    assert (rec.key, rec.polarity) == ("beverage", Polarity.NEGATIVE)
    assert "stop suggesting coffee" in rec.content.lower()


def test_chinese_and_english_statements_share_one_slot(mem: Memory) -> None:
    first = mem.add("我喜欢喝咖啡", user="u").written[0]
    second = mem.add("I no longer drink coffee", user="u").written[0]
    old, new = mem.get(first), mem.get(second)
    assert old.key == new.key == "beverage"
    assert new.polarity is Polarity.NEGATIVE and new.supersedes == first
    assert "no longer" in new.content


def test_switch_replaces_the_exclusive_choice(mem: Memory) -> None:
    first = mem.add("我喜欢用 Vim", user="u").written[0]
    second = mem.add("我现在改用 VS Code 了", user="u").written[0]
    assert mem.get(first).key == mem.get(second).key == "editor"
    assert mem.get(second).supersedes == first and mem.get(second).value == "VS Code"


def test_preference_keeps_the_rejected_alternative(mem: Memory) -> None:
    rec = hot_hit(mem, "tabs", "I prefer tabs over spaces")
    assert rec.key == "convention:indentation" and rec.value == "tabs"
    assert rec.attributes["rejected"] == ["spaces"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("以后请用中文回复我", "reply_language", "中文"),
        ("Always answer in English, please", "reply_language", "English"),
        ("我比较喜欢简洁的回答", "reply_style", "简洁"),
        ("I'm not a fan of Java", "language:java", "Java"),
    ],
)
def test_reply_and_tool_preferences(mem: Memory, text: str, key: str, value: str) -> None:
    rec = by_key(mem, key) if mem.add(text, user="u").written else pytest.fail("nothing written")
    assert rec.value is not None and rec.value.startswith(value)


def test_english_negation_survives_rephrasing(mem: Memory) -> None:
    rec = one(mem) if mem.add("I don't eat pork", user="u").written else pytest.fail("nothing written")
    assert rec.polarity is Polarity.NEGATIVE and rec.content == "The user does not eat pork."


# --- profile facts ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "facts"),
    [
        ("我叫王小明", {"name": "王小明"}),
        ("I work as a data scientist at Spotify", {"occupation": "data scientist", "employer": "Spotify"}),
        ("I'm based in Singapore and I work for Grab", {"city": "Singapore", "employer": "Grab"}),
        ("我叫陈静，是一名前端工程师", {"name": "陈静", "occupation": "前端工程师"}),
        ("My manager is Tom Chen", {"name": "Tom Chen"}),
    ],
)
def test_profile_facts(mem: Memory, text: str, facts: dict[str, str]) -> None:
    mem.add(text, user="u")
    got = {r.key: r.value for r in records(mem) if r.type is MemoryType.FACT}
    assert got == facts


def test_allergy_is_a_fact_about_the_user(mem: Memory) -> None:
    mem.add("I'm allergic to penicillin", user="u")
    rec = one(mem)
    assert (rec.type, rec.subject, rec.key) == (MemoryType.FACT, "user", "allergy")
    assert rec.content == "The user is allergic to penicillin."


# --- business context: batched at session end ------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "needle"),
    [
        ("我们的系统是微服务架构，共 40 个服务", "architecture", "40 个服务"),
        ("Our customers are mostly hospitals in Germany", "customers", "hospitals in Germany"),
    ],
)
def test_business_context_appears_only_after_session_end(
    mem: Memory, text: str, key: str, needle: str
) -> None:
    mem.add(text, user="u", session="s1")
    mem.flush()
    assert [r for r in records(mem, session="s1") if r.key == key] == []
    mem.end_session(user="u", session="s1")
    mem.flush()
    rec = by_key(mem, key, session="s1")
    assert needle in rec.content and rec.type is MemoryType.FACT


# --- tech stack and versions ------------------------------------------------------------


def test_stack_version_binds_to_the_project(mem: Memory) -> None:
    mem.add("项目用的是 Python 3.11", user="u", project="web")
    rec = by_key(mem, "stack:language", project="web")
    assert (rec.subject, rec.value) == ("project:web", "Python 3.11")
    assert mem.records(user="u", project="admin") == []


def test_this_project_resolves_to_the_project_name(mem: Memory) -> None:
    mem.add("这个项目用 pnpm 管理依赖", user="u", project="web")
    rec = by_key(mem, "stack:package_manager", project="web")
    assert "项目 web" in rec.content and "这个项目" not in rec.content


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("we upgraded to Node.js 22", "stack:runtime", "Node.js 22"),
        ("数据库从 MySQL 5.7 升级到了 MySQL 8.0", "stack:database", "MySQL 8.0"),
        ("我们刚把 Python 从 3.8 升到了 3.12", "stack:language", "Python 3.12"),
    ],
)
def test_upgrades_record_the_new_version(mem: Memory, text: str, key: str, value: str) -> None:
    mem.add(text, user="u")
    assert by_key(mem, key).value == value


def test_a_dropped_tool_is_a_negative_stack_fact(mem: Memory) -> None:
    mem.add("We don't use Redux anymore", user="u")
    rec = by_key(mem, "stack:state_management")
    assert rec.polarity is Polarity.NEGATIVE and "not use Redux" in rec.content


# --- decisions: when confirmed, with reasons and rejected alternatives ------------------


@pytest.mark.parametrize(
    ("text", "choice", "reason", "rejected"),
    [
        ("定了，就用 PostgreSQL，因为团队熟悉，不用 MongoDB", "PostgreSQL", "团队熟悉", "MongoDB"),
        (
            "We'll go with Postgres because the team knows it, instead of MongoDB",
            "Postgres",
            "the team knows it",
            "MongoDB",
        ),
    ],
)
def test_confirmed_decision_carries_reasons_and_rejected(
    mem: Memory, text: str, choice: str, reason: str, rejected: str
) -> None:
    mem.add(text, user="u", session="s1")
    assert [r for r in records(mem) if r.type is MemoryType.DECISION] == []  # not on the hot path
    mem.flush()
    rec = one(mem, MemoryType.DECISION)
    assert (rec.key, rec.value) == ("decision:database", choice)
    assert rec.attributes["reasons"] == [reason] and rec.attributes["rejected"] == [rejected]


@pytest.mark.parametrize(
    "text",
    [
        "要不要考虑用 Rust 重写？",
        "maybe we should try Vue",
        "We could use SQLite for the prototype, not sure yet",
        "我们讨论了一下要不要上 K8s，还没有结论",
        "How about we go with Svelte?",
    ],
)
def test_tentative_talk_is_not_a_decision(mem: Memory, text: str) -> None:
    mem.add(text, user="u", session="s1")
    mem.flush()
    assert records(mem, session="s1") == []


# --- rule 4: relative times become absolute in the user's zone --------------------------


@pytest.mark.parametrize(
    ("text", "day", "label"),
    [
        ("我下周三要去杭州出差", "2026-12-02", "2026年12月2日"),
        ("I'm flying to Tokyo next Friday", "2026-12-04", "2026-12-04"),
    ],
)
def test_plan_is_stored_with_an_absolute_date(mem: Memory, text: str, day: str, label: str) -> None:
    mem.add(text, user="u")
    rec = one(mem)
    assert rec.key.startswith("plan:") and label in rec.content
    assert "下周" not in rec.content and "next" not in rec.content
    assert local_day(rec.when_start) == day


def test_tomorrow_after_midnight_in_the_users_zone(mem: Memory) -> None:
    mem.add("明天上午十点体检", user="u", at=LATE_SUNDAY_UTC, timezone="Asia/Shanghai")
    rec = one(mem)
    assert "2026年12月1日 10:00" in rec.content and local_day(rec.when_start) == "2026-12-01"


@pytest.mark.parametrize(("at", "day"), [(SUNDAY, "2026-11-30"), (MONDAY, "2026-12-07")])
def test_next_monday_depends_on_the_week_of_the_anchor(mem: Memory, at: str, day: str) -> None:
    mem.add("下周一要交项目报告", user="u", at=at)
    assert local_day(one(mem).when_start) == day


@pytest.mark.parametrize(
    ("at", "end"),
    [(SUNDAY, datetime(2026, 11, 29, 16, tzinfo=UTC)), (MONDAY, datetime(2026, 12, 6, 16, tzinfo=UTC))],
)
def test_this_week_expires_at_the_end_of_the_monday_week(mem: Memory, at: str, end: datetime) -> None:
    mem.add("this week use the old API", user="u", at=at)
    rec = one(mem)
    assert rec.type is MemoryType.TEMPORARY and rec.expires_at == end


# --- short-lived facts: TTL ---------------------------------------------------------------


def test_deadline_today_expires_and_leaves_retrieval(mem: Memory, clock: FixedClock) -> None:
    rec = hot_hit(mem, "发布", "今天下午五点前发布")
    assert rec.type is MemoryType.TEMPORARY
    assert rec.expires_at == datetime(2026, 11, 29, 9, tzinfo=UTC)  # 17:00 in Shanghai
    assert "2026年11月29日 17:00" in rec.content and "今天" not in rec.content
    clock.set("2026-11-29T09:30:00+00:00")
    assert rec.id not in [h.memory.id for h in mem.search("发布", user="u", session="s1")]


def test_until_friday_sets_a_ttl(mem: Memory) -> None:
    mem.add("Until Friday, all PRs need two approvals", user="u")
    rec = one(mem)
    assert rec.expires_at == datetime(2026, 12, 4, 16, tzinfo=UTC)  # end of Friday in Shanghai
    assert "2026-12-04" in rec.content


# --- task state ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("数据库迁移脚本已经跑完了，下一步是切流量", ["迁移脚本", "切流量"]),
        ("参数确认了：batch size 用 64，学习率 3e-4", ["64", "3e-4"]),
        ("I finished the API refactor, still need to update the client SDK", ["API refactor", "client SDK"]),
    ],
)
def test_task_state_is_session_level_and_hot(mem: Memory, text: str, needles: list[str]) -> None:
    written = mem.add(text, user="u", session="s1").written
    rec = mem.get(written[0])
    assert rec.type is MemoryType.TASK_STATE and rec.scope.session == "s1"
    assert all(n in rec.content for n in needles)
    assert mem.records(user="u", session="s2") == []


# --- conditions are kept ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "condition", "key"),
    [
        ("如果项目很小，就用 SQLite", "项目很小", "database:sqlite"),
        ("If the build fails, roll back to the previous release", "the build fails", "instruction:"),
        ("除非我特别说明，否则回复都用中文", "我特别说明", "reply_language"),
        ("只有在用户量超过一万时才需要上缓存", "在用户量超过一万时", "instruction:"),
    ],
)
def test_conditions_are_kept(mem: Memory, text: str, condition: str, key: str) -> None:
    mem.add(text, user="u")
    rec = one(mem)
    assert rec.type is MemoryType.PREFERENCE  # a conditional rule, not a decision
    assert rec.conditions == [condition] and rec.key.startswith(key)


def test_condition_and_negation_together(mem: Memory) -> None:
    rec = hot_hit(mem, "call", "Unless it's urgent, don't call me after 9pm")
    assert rec.polarity is Polarity.NEGATIVE and rec.conditions == ["it's urgent"]
    assert rec.key == "contact_channel" and "don't call the user" in rec.content


# --- wording -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I'm a senior backend engineer", "The user is a senior backend engineer."),
        ("我在阿里巴巴工作", "用户在阿里巴巴工作。"),
        ("We sell accounting software to small restaurants", None),
    ],
)
def test_content_is_third_person(mem: Memory, text: str, content: str | None) -> None:
    mem.add(text, user="u", session="s1")
    mem.end_session(user="u", session="s1")
    mem.flush()
    recs = [r for r in records(mem, session="s1") if r.type is not MemoryType.EPISODE]
    assert recs
    for rec in recs:
        assert (
            "我" not in rec.content and " I " not in f" {rec.content} " and "we " not in rec.content.lower()
        )
        if content:
            assert rec.content == content


# --- rule values through the one span path ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我换成 Arc 浏览器了", "browser", "Arc"),  # "浏览器" is what it is, not its name
        ("my team lead is named Francesca", "name", "Francesca"),
        ("I'm on the platform team at work", "team", "platform team"),
        ("我叫陈静，是一名前端工程师", "occupation", "前端工程师"),
    ],
)
def test_a_rule_made_value_is_the_span_the_ranker_settles_on(
    mem: Memory, text: str, key: str, value: str
) -> None:
    mem.add(text, user="u")
    rec = by_key(mem, key)
    assert rec.value == value


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("星河数据的主要竞争对手是神策和GrowingIO", {"神策", "GrowingIO"}),
        ("At Loomly our biggest competitors are Hootsuite and Buffer", {"Hootsuite", "Buffer"}),
    ],
)
def test_a_list_the_rule_captured_whole_becomes_one_value_each(
    mem: Memory, text: str, values: set[str]
) -> None:
    """Each conjunct is a value of its own, never the list as one value (reconcile's
    near-duplicate check may still fold the second into the first: same clause, same key)."""
    mem.add(text, user="u", session="s")
    mem.end_session(user="u", session="s")
    mem.flush()
    got = [r.value for r in records(mem) if r.key == "competitors"]
    assert got and set(got) <= values
