"""A clause that states several facts keeps each of them (``ModelExtractor._pooled``), and each
its owner, zh + en, on every backend.

The attribute head splits its mass between the facts of one clause ("I'm an accountant in
Leeds": occupation 0.21, industry 0.19, city 0.19), each under the bar one slot's value must
clear, and nothing was stored. Now each value the span ranker is sure of is held at the
clause's mass on all of them; and a clause the user opens about themself ("我今年32岁，…")
is the user's though the subject head leans to "person" (0.50) and no one is named."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from memquill.model import MemoryRecord, MemoryType
from tests.support.sessions import say


def _facts(mem: Memory, statuses: list[str]) -> dict[str, MemoryRecord]:
    recs = mem.records(user="u", statuses=statuses)
    return {r.key: r for r in recs if r.type is not MemoryType.EPISODE and r.subject == "user"}


@pytest.mark.parametrize(
    ("text", "facts", "status"),
    [
        ("我今年32岁，在北京做律师。", {"age": "32", "occupation": "律师"}, "active"),
        ("I'm an accountant in Leeds.", {"occupation": "accountant", "city": "Leeds"}, None),
        ("我28岁，在杭州当老师。", {"age": "28", "occupation": "老师"}, None),
        ("I'm 29 and a nurse in Leeds.", {"age": "29", "city": "Leeds"}, None),
    ],
)
def test_each_fact_of_a_clause_is_kept(
    mem_e5: Memory, clock: FixedClock, text: str, facts: dict[str, str], status: str | None
) -> None:
    say(mem_e5, clock, [text], "s1")
    found = _facts(mem_e5, ["active", "candidate"])
    assert {k: found[k].value for k in facts if k in found} == facts, {k: r.value for k, r in found.items()}
    if status:  # the head is sure enough of the clause's facts together: no review needed
        assert all(found[k].status.value == status for k in facts), [found[k].status for k in facts]
    for k in facts:
        model = found[k].attributes.get("model") or {}
        if "facts" in model:  # read with the clause's other facts: explain() says with how many
            assert model["facts"] >= 2 and model["pooled"] == pytest.approx(found[k].confidence, abs=1e-3)


@pytest.mark.parametrize("text", ["I'm 29 and a nurse in Leeds.", "我今年32岁，在北京做律师。"])
def test_a_span_that_holds_another_value_is_no_value(mem_e5: Memory, clock: FixedClock, text: str) -> None:
    """ "29 and a nurse" (the ranker: 0.01 as an occupation) holds the age: it is neither an
    occupation nor a reason to believe the age more."""
    say(mem_e5, clock, [text], "s1")
    values = [r.value or "" for r in _facts(mem_e5, ["active", "candidate"]).values()]
    assert not [v for v in values if " and " in v or "岁" in v], values


@pytest.mark.parametrize(
    ("text", "key", "value", "owner"),
    [
        (
            "I signed up at Equinox because my cousin gets a discount there.",
            "gym",
            "Equinox",
            "user",
        ),
        ("我去了舒适堡健身，因为我表妹在那办卡有折扣。", "gym", "舒适堡", "user"),
        ("I'm worried because my son has asthma.", "medical_condition", "asthma", "person:son"),
    ],
)
def test_a_relation_in_the_reason_is_not_whom_the_clause_before_is_about(
    mem_e5: Memory, clock: FixedClock, text: str, key: str, value: str, owner: str
) -> None:
    """``subjects.value_owner``: for a single-valued attribute a reason ("because my cousin…")
    ends the segment the value is in; the user's gym stays the user's, and a fact said inside
    the reason stays the relation's."""
    say(mem_e5, clock, [text], "s1")
    recs = [r for r in mem_e5.records(user="u", statuses=["active", "candidate"]) if r.key == key]
    assert {r.subject for r in recs if r.value == value} == {owner}, [
        (r.subject, r.key, r.value) for r in recs
    ]
