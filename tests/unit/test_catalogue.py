"""The attribute catalogue is valid data that the code can rely on."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from memquill.catalogue import load, parse, subject_kind
from memquill.errors import ConfigError


def test_bundled_catalogue_covers_the_required_ground() -> None:
    cat = load()
    keys = set(cat.keys())
    assert len(keys) >= 80
    # keys name attributes, never values
    assert {"stack:database", "stack:language", "stack:ci", "city", "employer", "allergy"} <= keys
    assert not any(k.startswith("stack:") and k[6:] in {"postgresql", "mysql", "python"} for k in keys)
    assert all(a.questions.en and a.questions.zh and a.labels.en and a.labels.zh for a in cat.attributes)
    kinds = {k for a in cat.attributes for k in a.subjects}
    assert kinds == {"user", "person", "project", "org", "event", "item"}


def test_safety_critical_attributes_are_the_medical_ones() -> None:
    cat = load()
    critical = {a.key for a in cat.attributes if a.safety_critical}
    assert {
        "allergy",
        "medication",
        "medical_condition",
        "dietary_restriction",
        "accessibility_need",
        "emergency_contact",
    } <= critical
    assert "beverage" not in critical and cat.get("allergy").profile == "constraint"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("word", "relation"),
    [("表妹", "cousin"), ("领导", "manager"), ("老婆", "wife"), ("Boss", "manager"), ("sister", "sister")],
)
def test_relation_words_in_both_languages(word: str, relation: str) -> None:
    assert load().relation(word) == relation


def test_allows_checks_the_subject_kind() -> None:
    cat = load()
    assert cat.allows("city", "person:cousin") and cat.allows("city", "user")
    assert not cat.allows("stack:database", "user") and cat.allows("stack:database", "project:web")
    assert not cat.allows("no-such-key", "user")
    assert subject_kind("event:读书会") == "event"


def test_a_broken_catalogue_is_a_config_error() -> None:
    text = resources.files("memquill").joinpath("data/attributes.json").read_text("utf-8")
    doc = json.loads(text)
    doc["attributes"].append(doc["attributes"][0])
    with pytest.raises(ConfigError, match="duplicate"):
        parse(json.dumps(doc))
    with pytest.raises(ConfigError):
        parse('{"version": "1"}')


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        ("我现在的上级叫什么名字", "manager"),
        ("我的新领导叫王芳", "manager"),
        ("My new manager at Lumen is Dana Whitfield", "manager"),
        ("my current boss is from Leeds", "manager"),
        ("我新买的车是白色的", None),
    ],
)
def test_the_current_or_new_one_is_still_the_relation(text: str, relation: str | None) -> None:
    from memquill.write.extract import subjects

    found = subjects.relation(text)
    assert (found[0] if found else None) == relation


@pytest.mark.parametrize(
    "query",
    [
        "Who do I report to now?",
        "老板现在是谁来着？",
        "我现在的顶头上司叫啥？",
        "who's my manager these days",
    ],
)
def test_asking_for_the_boss_goes_to_the_managers_name(query: str) -> None:
    from memquill.retrieve import routing

    assert routing.route(query)[0] == routing.Slot("person:manager", "name", "words")
