"""A pronoun becomes a person only when a name was said: a word after a relation word that
names nobody ("朋友问我…", "my brother Lol…") is never written in place of 他 or "he"
(zh + en, every backend)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


@pytest.mark.parametrize(
    ("turn", "never"),
    [
        ("朋友问我要不要跟他一起合租到汉口，说离他公司近，但我上班在光谷，不太现实。", "问我一起"),
        ("I texted my brother Lol he never replies before noon.", "Lol never"),
    ],
)
def test_no_stored_text_puts_a_non_name_in_place_of_a_pronoun(
    mem: Memory, clock: FixedClock, turn: str, never: str
) -> None:
    say(mem, clock, [turn], "s1")
    stored = [r.content for r in mem.records(user="u")]
    assert stored and any(turn[:6] in c for c in stored)  # the turn is kept…
    assert not any(never in c for c in stored)  # …with its pronoun, not a made-up person
