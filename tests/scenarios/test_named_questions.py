"""A question naming a person the user has told about asks about that person (issue #11, zh +
en, every backend, the real embedder and the attribute model): once "my sister Maeve" /
"我姐姐叫林晓" is known, "What does Maeve do for work now?" / "林晓现在在哪上班？" goes to the
sister's slot, not the user's own, even when the user's own value is stored too."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say

CASES = [
    (
        ["我在银行做柜员。", "我姐姐叫林晓，在医院当护士。"],
        "林晓上个月辞职了，现在在一家药企做医药代表。",
        "林晓现在在哪上班？",
        "药企",
        "银行",
    ),
    (
        ["I work as a data analyst at a bank.", "My sister Maeve is a paramedic in Galway."],
        "Maeve called me herself — the clinic took her straight back as a veterinary nurse.",
        "What does Maeve do for work now?",
        "veterinary nurse",
        "data analyst",
    ),
]


@pytest.mark.parametrize(("intro", "change", "question", "theirs", "mine"), CASES)
def test_a_question_naming_a_known_person_is_answered_from_their_slot(
    mem_e5: Memory, clock: FixedClock, intro: list[str], change: str, question: str, theirs: str, mine: str
) -> None:
    say(mem_e5, clock, intro, "s1", gap_days=20)
    say(mem_e5, clock, [change], "s2", gap_days=20)
    hits = mem_e5.search(question, user="u", k=5)
    top = hits[0]
    assert top.why.get("path") == "slot"
    assert top.memory.subject == "person:sister"
    assert theirs in (top.memory.value or "")
    assert not any(mine in (h.memory.value or "") for h in hits[:1])


@pytest.mark.parametrize(
    ("intro", "question", "mine"),
    [
        (["我在银行做柜员。", "我姐姐叫林晓，在医院当护士。"], "我现在在哪上班？", "银行"),
        (
            ["I work as a data analyst at a bank.", "My sister Maeve is a paramedic in Galway."],
            "What do I do for work now?",
            "data analyst",
        ),
    ],
)
def test_a_question_naming_nobody_stays_the_users(
    mem_e5: Memory, clock: FixedClock, intro: list[str], question: str, mine: str
) -> None:
    say(mem_e5, clock, intro, "s1", gap_days=20)
    top = mem_e5.search(question, user="u", k=5)[0]
    assert top.memory.subject == "user"
    assert mine in f"{top.memory.value} {top.memory.content}"
