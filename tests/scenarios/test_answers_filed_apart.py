"""A question finds its answer however the statement was filed: a project's host said as a
platform is its deploy target and asked as its cloud ("where is my app hosted"), and a new
manager named by a nickname of a Latin name inside a request ("写封邮件给新领导阿May") is the
manager (zh + en, every backend, the real embedder and the attribute model)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say_apart


@pytest.mark.parametrize(
    ("turns", "question", "now"),
    [
        (
            [
                "it's a small side project, a habit tracker app, deployed on Heroku",
                "moved the app to Fly.io last weekend, bill went from $50 to like $12.",
            ],
            "where is my app hosted right now?",
            "Fly.io",
        ),
        (
            ["我们这个小程序后端部署在Heroku上。", "上周把后端迁到Fly.io了，账单便宜了一大截。"],
            "我们的后端现在托管在哪个平台？",
            "Fly.io",
        ),
        (
            [
                "帮我改下这段周报，老周（我领导）嫌我写得太啰嗦",
                "帮我写封邮件给新领导阿May，介绍一下自己，语气别太正式",
            ],
            "我现在的领导叫啥？",
            "阿May",
        ),
        (
            [
                "my manager Tom wants a one-page summary of our Q4 numbers, how should I structure it?",
                "draft an email to my new manager Priya introducing myself, keep it casual",
            ],
            "who's my manager at the moment?",
            "Priya",
        ),
    ],
)
def test_the_answer_is_found_where_it_was_filed(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, now: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=30)
    assert mem_e5.search(question, user="u", k=5)[0].memory.value == now
