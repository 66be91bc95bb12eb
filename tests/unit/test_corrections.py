"""Which turns correct by naming only the right and the wrong value (``write/corrections.py``)."""

from __future__ import annotations

import pytest

from memquill.write.corrections import said_instead


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("Sorry, Captain, not Admiral. Admiral lost the vote by one.", ("Captain", "Admiral")),
        ("Sorry, I meant Chikoo, not Toffee — Toffee is my sister's dog.", ("Chikoo", "Toffee")),
        ("说错了，不是糯米，是糯糯。", ("糯糯", "糯米")),
        ("不对，是 Erlang，不是 Elixir", ("Erlang", "Elixir")),
        ("纠正一下：不是 Zed，是 Lapce", ("Lapce", "Zed")),
        # a preference or a contrast is no correction; Chinese needs a correcting word
        ("I like tea, not coffee", None),
        # what follows "no," is a clause or a negation, not the right value
        ("No, I want tea, not coffee", None),
        ("No not really, not today", None),
        ("no, not really", None),
        ("是猫，不是狗", None),
    ],
)
def test_said_instead(text: str, pair: tuple[str, str] | None) -> None:
    assert said_instead(text) == pair
