"""A question that says a catalogue question form word for word is answered from that slot
first (issue #11, zh + en, every backend, the real embedder and the attribute model): the
learned router read "Who am I working for now?" as the occupation, so the job title led and
the new employer came second."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


@pytest.mark.parametrize(
    ("before", "change", "question", "now"),
    [
        (
            "I work at Brightline Health as a senior data engineer.",
            "I left Brightline and joined Acme Robotics last month.",
            "Who am I working for now?",
            "Acme Robotics",
        ),
        ("我在招商银行做柜员。", "上个月从招商银行辞职了，去了腾讯做运营。", "我现在的东家是谁？", "腾讯"),
    ],
)
def test_a_question_in_a_forms_words_leads_with_that_slot(
    mem_e5: Memory, clock: FixedClock, before: str, change: str, question: str, now: str
) -> None:
    say(mem_e5, clock, [before], "s1", gap_days=20)
    say(mem_e5, clock, [change], "s2", gap_days=20)
    top = mem_e5.search(question, user="u", k=5)[0]
    assert (top.memory.key, top.memory.value) == ("employer", now)
    assert top.why.get("path") == "slot"
