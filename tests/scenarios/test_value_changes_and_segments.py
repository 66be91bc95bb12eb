"""Values in changes and in clauses that state several facts, end to end, zh + en, on every
backend: the slot gets the value that holds now, never the one the clause retires; a clause
listing facts by commas gets its typed facts beside the one the whole clause reads as."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.model import MemoryRecord, Polarity


def stored(mem: Memory, user: str, key: str, **scope: str) -> list[MemoryRecord]:
    return [r for r in mem.records(user=user, statuses=["active", "candidate"], **scope) if r.key == key]


@pytest.mark.parametrize(
    ("text", "key", "old", "new"),
    [
        ("我们的数据库不用 MySQL 了，现在是 TiDB", "stack:database", "MySQL", "TiDB"),
        ("we don't use MySQL anymore, it's all Postgres now", "stack:database", "MySQL", "Postgres"),
    ],
)
def test_a_rule_stores_the_value_a_change_names_now(
    mem: Memory, text: str, key: str, old: str, new: str
) -> None:
    """The rule captured the retired value ("不用 MySQL 了" read as a negative statement);
    the change cue names the new one, which the slot gets instead."""
    mem.add(text, user="u", project="p")
    mem.flush()
    recs = stored(mem, "u", key, project="p")
    assert any(r.value == new and r.polarity is Polarity.POSITIVE for r in recs), [
        (r.key, r.value) for r in recs
    ]
    assert not any(r.value == old and r.polarity is Polarity.POSITIVE for r in recs)


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        ("现在不在杭州了，回长沙发展了", "杭州", "长沙"),
        ("I'm not in Boston anymore, I'm in Austin now", "Boston", "Austin"),
    ],
)
def test_the_model_stores_the_value_a_change_names_now(mem_e5: Memory, text: str, old: str, new: str) -> None:
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    values = {r.value for r in stored(mem_e5, "u", "city")}
    assert new in values and old not in values


@pytest.mark.parametrize(
    ("text", "subject", "age"),
    [
        ("我表哥叫王磊，今年35，在深圳", "person:cousin", "35"),
        ("my brother Sam is 31, he lives in Lisbon", "person:brother", "31"),
    ],
)
def test_a_comma_segment_adds_a_typed_fact_about_the_clauses_subject(
    mem_e5: Memory, text: str, subject: str, age: str
) -> None:
    """The whole clause reads as a name or a city; its segment "今年35" / "31" is the age,
    about the person the clause is about (not the speaker)."""
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    ages = [(r.subject, r.value) for r in stored(mem_e5, "u", "age")]
    assert (subject, age) in ages, ages
    assert all(s == subject for s, _ in ages)


@pytest.mark.parametrize(
    ("text", "ruled", "key", "value"),
    [
        ("我从阿里跳槽到拼多多了，下周一入职", "employer", "work_start_date", "下周一"),
        ("I work at Spotify, I'm 29", "employer", "age", "29"),
    ],
)
def test_a_segment_the_rule_left_adds_its_typed_fact(
    mem_e5: Memory, text: str, ruled: str, key: str, value: str
) -> None:
    """A rule took the clause for one fact; the model reads its other comma segments, which
    state another ("下周一入职", "I'm 29"), instead of leaving them unread."""
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    assert stored(mem_e5, "u", ruled)
    assert [r.value for r in stored(mem_e5, "u", key)] == [value]


@pytest.mark.parametrize(
    ("text", "key", "values", "project"),
    [
        ("我平时用iPad Pro，手机是小米14", "device", {"iPad Pro", "小米14"}, None),
        ("errors go to Sentry, metrics go to Datadog", "stack:monitoring", {"Sentry", "Datadog"}, "p"),
    ],
)
def test_a_multi_valued_attribute_takes_a_value_from_each_segment(
    mem_e5: Memory, text: str, key: str, values: set[str], project: str | None
) -> None:
    """The whole clause reads as one device (one monitoring tool); the segment naming the
    other is a further value of the same multi-valued attribute, not left unread."""
    scope = {"project": project} if project else {}
    mem_e5.add(text, user="u", session="s", **scope)
    mem_e5.end_session(user="u", session="s", **scope)
    mem_e5.flush()
    assert {r.value for r in stored(mem_e5, "u", key, **scope)} == values


@pytest.mark.parametrize(
    ("text", "key", "refused", "wanted"),
    [
        ("我不喝咖啡，喝了心慌，一般都喝普洱", "beverage", "咖啡", "普洱"),
        ("please don't call me, Signal messages work best", "contact_channel", "call", "Signal"),
    ],
)
def test_a_refused_value_and_the_wanted_one_said_together_are_both_kept(
    mem_e5: Memory, text: str, key: str, refused: str, wanted: str
) -> None:
    """A single-valued attribute the rule gave only as refused takes the value another
    segment states; reconcile keeps both, one negative and one positive (the same clause is
    no re-run of the first)."""
    mem_e5.add(text, user="u", session="s")
    mem_e5.end_session(user="u", session="s")
    mem_e5.flush()
    recs = stored(mem_e5, "u", key)
    got = {(r.value, r.polarity) for r in recs}
    assert (refused, Polarity.NEGATIVE) in got, got
    assert (wanted, Polarity.POSITIVE) in got, got
    assert len(recs) == 2, got
