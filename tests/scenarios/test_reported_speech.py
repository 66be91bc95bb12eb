"""Rule 9 (third parties are subjects too): what a turn reports is about the one the report
names. "我老公说他下个月去字节上班" became the user's employer and superseded it; "my mom says
my sister works at Google now" became the mother's. A place where someone goes to work ("去杭州
上班") is where they work, not who employs them."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.model import Status
from memquill.write.extract.subjects import relation

REPORTS = {
    "zh": (["我在网易上班。", "我老公说他下个月去字节上班"], ("person:husband", "employer", "字节")),
    "en": (
        ["I work at Farfetch.", "My mom says my sister works at Google now"],
        ("person:sister", "employer", "Google"),
    ),
}


def _facts(mem: Memory, user: str) -> set[tuple[str, str, str]]:
    return {
        (r.subject, r.key, r.value or "")
        for r in mem.records(user=user, statuses=[Status.ACTIVE, Status.CANDIDATE])
        if r.type != "episode"
    }


@pytest.mark.parametrize("lang", REPORTS)
def test_reported_words_are_about_the_one_they_name(mem_e5: Memory, lang: str) -> None:
    turns, fact = REPORTS[lang]
    for t in turns:
        mem_e5.add(t, user="u", session="s1")
    mem_e5.end_session(user="u", session="s1")
    mem_e5.flush()
    facts = _facts(mem_e5, "u")
    assert fact in facts
    employer = {v for s, k, v in facts if s == "user" and k == "employer"}
    assert employer == {"网易" if lang == "zh" else "Farfetch"}
    assert not [f for f in facts if f[0] == "person:mother"]


def test_a_place_someone_goes_to_work_in_is_their_workplace(mem: Memory) -> None:
    mem.add("我妈说我姐下个月去杭州上班", user="w", session="s1")
    mem.end_session(user="w", session="s1")
    mem.flush()
    facts = _facts(mem, "w")
    assert ("person:sister", "workplace", "杭州") in facts
    assert not [f for f in facts if f[1] == "employer"]


@pytest.mark.parametrize(
    ("text", "who"),
    [
        ("我妈说我姐下个月去杭州上班", "sister"),
        ("我老公说他下个月去字节上班", "husband"),
        ("听我妈说，我表弟在苏州做护士", "cousin"),
        ("我妈说我该多运动", None),
        ("my sister told me she moved to Denver", "sister"),
        ("my boss said I should take Friday off", None),
        ("I told my boss I quit", "manager"),
    ],
)
def test_relation_of_a_report(text: str, who: str | None) -> None:
    rel = relation(text)
    assert (rel[0] if rel else None) == who
