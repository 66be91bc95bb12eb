"""A pet's or belonging's name is the item's (``item:<thing>``/``name``), end to end, zh + en,
on every backend, with the attribute model (the name is read off the hot path): a renamed pet
answers "dog's name?" / "猫现在叫啥" with its new name and the old one leaves the top 5. The
user's own name is not overwritten, and someone else's pet names nothing of the user's."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


def slot(mem: Memory, subject: str) -> list[tuple[str | None, str]]:
    recs = mem.records(user="u", statuses=["active", "superseded"])
    return [(r.value, r.status.value) for r in recs if r.subject == subject and r.key == "name"]


@pytest.mark.parametrize(
    ("first", "later", "question", "subject", "was", "now"),
    [
        (
            "家里的猫叫糯米，三岁，特别能吃。",
            "女儿非要给猫改名叫大将军，全家投票通过。",
            "猫现在叫啥",
            "item:猫",
            "糯米",
            "大将军",
        ),
        (
            "We adopted a greyhound called Pixel!",
            "The kids voted and the dog's called Admiral now.",
            "dog's name?",
            "item:dog",
            "Pixel",
            "Admiral",
        ),
    ],
)
def test_a_renamed_pet_answers_with_its_new_name(
    mem_e5: Memory, clock: FixedClock, first: str, later: str, question: str, subject: str, was: str, now: str
) -> None:
    say(mem_e5, clock, [first], "s1", gap_days=20)
    say(
        mem_e5,
        clock,
        ["帮我写一首关于秋天的诗" if subject == "item:猫" else "write a short poem about autumn"],
        "s2",
    )
    say(mem_e5, clock, [later], "s3", gap_days=20)
    assert (now, "active") in slot(mem_e5, subject)
    assert (was, "superseded") in slot(mem_e5, subject)
    hits = mem_e5.search(question, user="u", k=5)
    assert hits[0].memory.value == now
    shown = [f"{h.memory.value or ''} {h.memory.content}" for h in hits]
    assert not [t for t in shown if was in t and now not in t]


@pytest.mark.parametrize(
    ("intro", "pet", "own"),
    [
        ("我叫林栖，在厦门做后端。", "纠正一下，上次说错了，猫叫芝士。", "林栖"),
        ("My name is Wanjiru.", "We adopted a beagle last weekend! We're calling him Toffee.", "Wanjiru"),
    ],
)
def test_a_pets_name_leaves_the_users_own_name_alone(
    mem_e5: Memory, clock: FixedClock, intro: str, pet: str, own: str
) -> None:
    say(mem_e5, clock, [intro], "s1")
    say(mem_e5, clock, [pet], "s2")
    mine = [
        r.value
        for r in mem_e5.records(user="u", statuses=["active"])
        if r.subject == "user" and r.key == "name"
    ]
    assert mine == [own]


@pytest.mark.parametrize("text", ["我妈家的猫叫花花，胖得走不动", "my sister's dog is called Rex, he's huge"])
def test_someone_elses_pet_names_nothing_of_the_users(mem_e5: Memory, clock: FixedClock, text: str) -> None:
    say(mem_e5, clock, [text], "s1")
    recs = mem_e5.records(user="u", statuses=["active", "candidate"])
    assert not [r for r in recs if r.subject.startswith("item:") and r.key == "name"]


@pytest.mark.parametrize(
    ("turns", "subject", "was", "now"),
    [
        (
            [
                "从救助站领了只小黑猫！站里给它起的名叫小七，两个月大",
                "小七这名字我越叫越不顺口，改叫煤球了，黑乎乎的正合适",
            ],
            "item:猫",
            "小七",
            "煤球",
        ),
        (
            [
                "Our dog is called Biscuit.",
                "Biscuit never answered to that name, so we are calling her Pepper now.",
            ],
            "item:dog",
            "Biscuit",
            "Pepper",
        ),
        (
            ["Our dog is called Biscuit.", "We ended up renaming the dog Mochi."],
            "item:dog",
            "Biscuit",
            "Mochi",
        ),
    ],
    ids=["zh-old-name-only", "en-old-name-only", "en-renaming-the-dog"],
)
def test_a_pet_renamed_by_its_old_name_is_the_pet_not_the_user(
    mem_e5: Memory, clock: FixedClock, turns: list[str], subject: str, was: str, now: str
) -> None:
    """ "小七这名字…改叫煤球了" names no cat: the model read 小七 as the user's own name, and the
    cat kept its old one. A name the clause gives, when it says a known pet's name, is the pet's
    (``entities.renamed_thing``); "站里给它起的名叫小七" names the cat the turn adopted."""
    for i, turn in enumerate(turns):
        say(mem_e5, clock, [turn], f"s{i}", gap_days=20)
    assert (now, "active") in slot(mem_e5, subject)
    assert (was, "superseded") in slot(mem_e5, subject)
    assert not [v for v, status in slot(mem_e5, "user") if status == "active"]


@pytest.mark.parametrize(
    "turns",
    [
        ["我家狗叫旺财", "我叫旺财他爸，哈哈，其实我叫李雷"],
        ["Our dog is called Max.", "My name is Olive, Max just calls me mum."],
    ],
    ids=["zh", "en"],
)
def test_the_users_own_name_beside_a_pets_stays_the_users(
    mem_e5: Memory, clock: FixedClock, turns: list[str]
) -> None:
    for i, turn in enumerate(turns):
        say(mem_e5, clock, [turn], f"s{i}", gap_days=20)
    assert {v for v, status in slot(mem_e5, "user") if status == "active"} & {"李雷", "Olive"}
