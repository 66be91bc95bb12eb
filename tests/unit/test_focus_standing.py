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
from memquill.retrieve.turn_readings import states

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


def episode(
    text: str, reading: list[object], clauses: list[object] | None, project: str | None = None
) -> MemoryRecord:
    """An episode whose one user turn carries the readings the write path stores with it."""
    turn: dict[str, object] = {"text": text, "reading": reading}
    if clauses is not None:
        turn["clauses"] = clauses
    r = rec(text, f"episode:{len(text)}", MemoryType.EPISODE, project)
    return r.model_copy(update={"attributes": {"statements": [turn]}})


# a turn the classifier labels by its likeliest reading as something else (a name, an event
# time) while one of its clauses states what the request's kind of task needs
MISREAD = [
    (
        "在初中教物理，下周要出一套单元测验，帮我想想题型",
        [0.94, [["event_time", 0.28], ["learning", 0.17]]],
        [0.96, [["school", 0.66], ["deadline", 0.42]]],
        "school",
    ),
    (
        "Biscuit my beagle chewed through the charger cable again, unbelievable",
        [0.9, [["name", 0.31], ["pet", 0.22]]],
        [0.95, [["pet", 0.71], ["device", 0.2]]],
        "pet",
    ),
]


@pytest.mark.parametrize(("text", "reading", "clauses", "key"), MISREAD, ids=["zh", "en"])
def test_a_far_episode_whose_turn_states_a_named_attribute_by_a_clause_stays(
    text: str, reading: list[object], clauses: list[object], key: str
) -> None:
    best = hit(rec("Best match about the request.", "note", MemoryType.EPISODE), 0.86)
    far = hit(episode(text, reading, clauses), 0.82)
    assert states(far.memory.attributes["statements"][0], {key}) == key
    assert focus([best, far]) == [best]  # the margin alone trims it
    assert focus([best, far], standing={key}) == [best, far]
    assert focus([best, far], standing={"city"}) == [best]  # only for the attribute named


@pytest.mark.parametrize(("text", "reading", "clauses", "key"), MISREAD, ids=["zh", "en"])
def test_a_far_episode_stays_out_when_its_readings_do_not_state_it(
    text: str, reading: list[object], clauses: list[object], key: str
) -> None:
    best = hit(rec("Best match about the request.", "note", MemoryType.EPISODE), 0.86)
    weak = [0.95, [[key, 0.45]]]  # under the bar
    passing = [0.1, [[key, 0.9]]]  # no durable statement ("had pasta last night")
    others = [
        hit(episode(text, reading, weak), 0.82),
        hit(episode(text, reading, passing), 0.82),
        hit(episode(text, reading, clauses, project="shop"), 0.82),  # another project's
        hit(episode(text, reading, None), 0.82),  # no clause read
        hit(rec(text, "note", MemoryType.EPISODE), 0.82),  # no stored reading at all
    ]
    assert focus([best, *others], standing={key}) == [best]
