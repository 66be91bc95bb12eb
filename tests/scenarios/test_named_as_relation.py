"""Someone named *as* a relation names that relation: "first meeting with Dr Osei as main
supervisor", "陈总作为我的新领导…", and a new one said without "my" ("…, new landlord is Sandra") —
a new name of a single-valued relation replaces the old one (zh + en, every backend). A figure of speech that names no relation ("Mark as usual was late")
names no one.

Before: the name was only in the episode and the old supervisor stayed the answer."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from memquill.write.extract.appositions import relation_names
from tests.support.sessions import say_apart


@pytest.mark.parametrize(
    ("turns", "question", "now", "before"),
    [
        (
            [
                "my supervisor Prof. Whitfield wants the lit review by june",
                "first proper meeting with Dr Osei as main supervisor, she wants a chapter outline by august",
            ],
            "who's my main supervisor now?",
            "Dr Osei",
            "Prof. Whitfield",
        ),
        (
            ["我领导是王总，人挺好说话", "陈总作为我的新领导第一次开周会 让我准备季度汇报"],
            "我现在的领导是谁",
            "陈总",
            "王总",
        ),
        (
            [
                "my landlord is Mr Okafor, he's fine",
                "the flat got sold, new landlord is Sandra, she seems no-nonsense",
            ],
            "what's my landlord's name",
            "Sandra",
            "Mr Okafor",
        ),
    ],
    ids=["en-as-main-supervisor", "zh-作为我的新领导", "en-new-landlord-is"],
)
def test_a_name_said_as_a_relation_replaces_the_old_name(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, now: str, before: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=45)
    names = {r.value for r in mem_e5.records(user="u", statuses=["active"]) if r.key == "name"}
    assert now in names and before not in names, names
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert top.key == "name" and top.value == now, (top.key, top.value, top.content)


@pytest.mark.parametrize(
    ("text", "who"),
    [
        (
            "Amara Osei is stepping up to be my primary supervisor, how do I handle the handover",
            ("manager", "Amara Osei"),
        ),
        ("Kim will take over as our manager next month", ("manager", "Kim")),
        ("the flat got sold, new landlord is Sandra, she seems nice", ("landlord", "Sandra")),
    ],
)
def test_a_name_said_stepping_up_or_new_names_the_relation(text: str, who: tuple[str, str]) -> None:
    assert relation_names(text, False) == [who]


@pytest.mark.parametrize(
    ("text", "zh"),
    [
        ("Mark as usual was late to standup", False),
        ("we went with Acme as our supplier", False),
        ("我作为我妹妹的姐姐得管管她", True),
    ],
)
def test_as_without_a_named_relation_names_no_one(text: str, zh: bool) -> None:
    assert relation_names(text, zh) == []
