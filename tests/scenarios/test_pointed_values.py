"""A turn that points at the place held ("先在这边干满一年再说", "staying here another year")
names no new one: the city stored answers "where do I live now", not that turn (zh + en,
every backend, the real embedder and the attribute model)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say, say_apart


@pytest.mark.parametrize(
    ("turns", "later", "question", "city"),
    [
        (
            [
                "深圳租房一般押几付几？我这周末就搬过去了，先找了个短租",
                "深圳夏天也太热了吧，每天出门像进蒸笼。有什么防中暑的小技巧？",
            ],
            [
                "老周今天微信找我，说网易那边有个新组想让我回去，你觉得值得考虑吗？",
                "算了我还是不折腾了，先在这边干满一年再说",
            ],
            "我现在住哪个城市来着？",
            "深圳",
        ),
        (
            ["I moved to Denver last spring, summers here are brutal."],
            [
                "my old boss wants me back in Portland, is it worth considering?",
                "nah, honestly I'm staying here another year",
            ],
            "which city do I live in now?",
            "Denver",
        ),
    ],
)
def test_a_turn_pointing_at_the_place_held_is_no_answer(
    mem_e5: Memory, clock: FixedClock, turns: list[str], later: list[str], question: str, city: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=20)
    say(mem_e5, clock, later, "later")
    top = mem_e5.search(question, user="u", k=5)[0].memory
    assert city in f"{top.value} {top.content}"
