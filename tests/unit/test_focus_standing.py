"""``focus`` keeps a far vector-only hit only when it is a user-level standing record of an
attribute the request's situations name; the everyday request kinds name such attributes in
both languages (``data/intents.json``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memquill.model import MemoryRecord, MemoryType, Scope, Source
from memquill.model.result import Hit
from memquill.retrieve import intents
from memquill.retrieve.attributes import attribute_of
from memquill.retrieve.pipeline import focus

NOW = datetime(2026, 11, 29, tzinfo=UTC)


def rec(
    content: str, key: str, type_: MemoryType = MemoryType.FACT, project: str | None = None
) -> MemoryRecord:
    return MemoryRecord(
        id=f"m-{key}-{len(content)}-{project}",
        type=type_,
        scope=Scope(user="u", project=project),
        subject="user",
        key=key,
        content=content,
        confidence=0.9,
        source=Source.EXPLICIT,
        evidence=["e1"],
        created_at=NOW,
        updated_at=NOW,
    )


def hit(r: MemoryRecord, cosine: float) -> Hit:
    return Hit(memory=r, score=cosine, why={"legs": {"vector": {"score": cosine}}})


@pytest.mark.parametrize(
    ("pet", "city"),
    [("家里有只橘猫叫团子。", "我住在成都。"), ("I have a cat called Mochi.", "I live in Leeds.")],
    ids=["zh", "en"],
)
def test_a_far_standing_record_of_a_named_attribute_stays(pet: str, city: str) -> None:
    best = hit(rec("Best match about the request.", "note", MemoryType.EPISODE), 0.86)
    far_pet = hit(rec(pet, "pet"), 0.82)
    far_city = hit(rec(city, "city"), 0.82)
    assert attribute_of(far_pet.memory).key == "pet"
    hits = [best, far_pet, far_city]
    assert focus(hits) == [best]  # the fixed margin alone trims both
    assert focus(hits, standing={"pet"}) == [best, far_pet]  # only the attribute named


@pytest.mark.parametrize("text", ["团子今天又把键盘键帽抠下来了。", "Mochi knocked my keyboard over again."])
def test_a_far_episode_or_project_record_does_not(text: str) -> None:
    best = hit(rec("Best match about the request.", "note", MemoryType.EPISODE), 0.86)
    episode = hit(rec(text, "pet", MemoryType.EPISODE), 0.82)
    project = hit(rec(text, "pet", project="shop"), 0.82)
    assert focus([best, episode, project], standing={"pet"}) == [best]


@pytest.mark.parametrize(
    ("request_", "needs"),
    [
        ("i'm going away for 4 days, what do i need to arrange at home?", {"pet", "lives_with"}),
        ("我要出门一周，帮我列一下出发前要做的事", {"pet", "lives_with"}),
        ("what should i get my girlfriend for our anniversary? i'll have to mail it", {"relation", "city"}),
        ("给老婆挑个结婚纪念日礼物", {"relation", "marital_status"}),
        ("推荐一家卖登山装备的店", {"city"}),
        ("where can I buy decent running shoes?", {"city"}),
        ("help me set up a morning routine before work", {"work_schedule", "sleep_schedule"}),
        ("帮我排一个每天的作息和锻炼计划", {"work_schedule", "sleep_schedule", "sport"}),
        ("suggest a takeaway for tonight", {"diet", "food_dislike"}),
        ("今晚想吃火锅，帮我找找", {"diet", "food_dislike"}),
        ("help me plan a monthly budget", {"budget"}),
        ("帮我算算每个月要存多少钱", {"budget"}),
        ("ugh. plan me a lazy sunday", {"hobby", "relation"}),
        ("周六想出去逛逛，有什么推荐", {"hobby", "relation"}),
    ],
)
def test_everyday_request_kinds_name_the_attributes_they_need(request_: str, needs: set[str]) -> None:
    assert needs <= intents.bears_on(request_)


@pytest.mark.parametrize(
    "task",
    [
        "Fix the failing unit test in the payment module.",
        "How do I install Node and run the project locally?",
        "把这段话翻译成英文。",
        "帮我修一下这个接口的报错。",
    ],
)
def test_a_task_bearing_on_no_situation_names_no_standing_attribute(task: str) -> None:
    assert not {"pet", "city", "budget", "relation", "work_schedule"} & intents.bears_on(task)
