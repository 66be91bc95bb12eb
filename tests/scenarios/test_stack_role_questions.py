"""A question naming a project's stack role by its word reaches the project's slot, however
the project is called (zh + en, every backend, with the attribute model):
"what db is pantrybot sitting on right now" after "moved pantrybot from sqlite to postgres"
answers postgres.

Before: the learned question router read a question naming a project by a word it had never
seen as asking about no remembered slot, and no other route fired ("what database is
pantrybot on now" reached no slot); the catalogue's role words (``asked_by``) now route it.
And a later turn about the project that names no technology of the role ("…I can just run
it at 3am") was taken for a newer statement of the slot and led."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say_apart

CASES = [
    (
        ["pantrybot is on sqlite for now, it's tiny", "moved pantrybot from sqlite to postgres yesterday"],
        "what db is pantrybot sitting on right now",
        "stack:database",
        "postgres",
    ),
    (
        ["小票识别那个服务部署在Heroku上", "小票识别已经从Heroku迁到Fly.io了，冷启动快多了"],
        "小票识别那个现在托管在哪",
        "stack:deploy_target",
        "Fly.io",
    ),
]


@pytest.mark.parametrize(("turns", "question", "key", "value"), CASES, ids=["en-db", "zh-hosting"])
def test_a_stack_role_word_reaches_the_projects_slot(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, key: str, value: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=30)
    top = mem_e5.search(question, user="u", k=1)[0]
    assert (top.memory.key, top.memory.value) == (key, value), (top.memory.key, top.memory.value)
    assert top.why.get("path") == "slot", top.why
