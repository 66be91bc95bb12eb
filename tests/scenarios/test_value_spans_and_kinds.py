"""Value spans that end where the value ends, and model readings of closed kinds, end to end,
zh + en, on every backend: a rule's value stops at a comma before another clause, at a
relative clause or a time after it; a technology the clause negates gives way to the one it
keeps even when the lexicon does not know that one; a pet is an animal said as the user's,
a drink is a drink, a lone adjective is no value, and every language of a list is kept."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.model import MemoryRecord, MemoryType, Polarity


def facts(mem: Memory, project: str | None = None) -> list[MemoryRecord]:
    recs = mem.records(user="u", statuses=["active", "candidate"], project=project)
    return [r for r in recs if r.type is not MemoryType.EPISODE]


def said(mem: Memory, text: str, project: str | None = None) -> list[MemoryRecord]:
    mem.add(text, user="u", session="s", project=project)
    mem.end_session(user="u", session="s")
    mem.flush()
    return facts(mem, project)


@pytest.mark.parametrize(
    ("text", "key", "kept", "retired"),
    [
        ("容器我们都用Podman，不用Docker了", "stack:container", "Podman", "Docker"),
        ("数据库用的是CockroachDB，之前的PostgreSQL扛不住了", "stack:database", "CockroachDB", "PostgreSQL"),
        ("we run everything on Podman now, not Docker", "stack:container", "Podman", "Docker"),
    ],
)
def test_a_negated_technology_gives_way_to_the_one_the_clause_keeps(
    mem: Memory, text: str, key: str, kept: str, retired: str
) -> None:
    """The rule captured the technology the clause retires; the slot gets the one it keeps,
    a name the tech lexicon need not know (a Latin run inside Chinese, a capitalised name)."""
    recs = [r for r in said(mem, text, project="p") if r.key == key]
    assert any(r.value == kept and r.polarity is Polarity.POSITIVE for r in recs), [
        (r.key, r.value) for r in recs
    ]
    assert not any(r.value == retired for r in recs)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我们的客户主要是连锁药店，单子都不大", "customers", "连锁药店"),
        ("most of our customers are dental clinics, which is a niche market", "customers", "dental clinics"),
        ("I switched from Chrome to Firefox last year", "browser", "Firefox"),
    ],
)
def test_a_rule_value_ends_where_another_clause_or_a_time_begins(
    mem: Memory, text: str, key: str, value: str
) -> None:
    values = [r.value for r in said(mem, text, project="p") if r.key == key]
    assert values == [value], values


@pytest.mark.parametrize(
    "text",
    [
        "Took the dog up Mount Tam this morning",
        "I walked my neighbour's dog after lunch",
        "周末带狗去爬了香山",
    ],
)
def test_an_animal_in_passing_is_no_pet(mem_e5: Memory, text: str) -> None:
    """The classifier reads these as about pets; no animal is said as the user's own, so the
    model proposes no pet (before: "dog", "香山")."""
    assert not [r.value for r in said(mem_e5, text) if r.key == "pet"]


def test_a_pet_is_the_animal_not_its_name(mem_e5: Memory) -> None:
    values = [r.value for r in said(mem_e5, "I have a gecko named Pickle") if r.key == "pet"]
    assert values == ["gecko"], values


@pytest.mark.parametrize(
    "text",
    ["Helix's multiple cursors are addictive", "Kakoune's multiple selections are addictive"],
)
def test_a_lone_adjective_is_no_value(mem_e5: Memory, text: str) -> None:
    assert not [(r.key, r.value) for r in said(mem_e5, text) if r.value == "addictive"]


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("I don't drink coffee anymore, switched to oolong a few months ago", "beverage", "oolong"),
        ("my uncle is a retired pilot who now restores old boats", "occupation", "retired pilot"),
    ],
)
def test_a_model_value_ends_before_a_time_or_a_relative_clause(
    mem_e5: Memory, text: str, key: str, value: str
) -> None:
    values = [r.value for r in said(mem_e5, text) if r.key == key and r.polarity is Polarity.POSITIVE]
    assert values == [value], values


@pytest.mark.parametrize(
    ("text", "languages"),
    [
        ("我会说粤语，葡萄牙语也能日常交流", {"粤语", "葡萄牙语"}),
        ("I speak Tagalog and Swedish, and my Farsi is passable", {"Tagalog", "Swedish", "Farsi"}),
    ],
)
def test_every_language_of_a_list_is_kept(mem_e5: Memory, text: str, languages: set[str]) -> None:
    got = {r.value for r in said(mem_e5, text) if r.key == "languages_spoken"}
    assert languages <= got, got


def test_a_wished_animal_is_no_pet(mem_e5: Memory) -> None:
    """ "should own" is a supposition, not an animal of the user's (before: pet "cat")."""
    text = "everyone should own a cat at least once, my aunt says"
    assert not [r.value for r in said(mem_e5, text) if r.key == "pet"]


def test_a_word_that_names_nothing_is_no_value(mem_e5: Memory) -> None:
    """ "everybody" points at people, it is no personality (before: personality "everybody")."""
    recs = said(mem_e5, "everybody at work says I'm way too blunt")
    assert not [(r.key, r.value) for r in recs if r.value and r.value.casefold() == "everybody"]
