"""Slots for what people subscribe to, feed their pets, where the pet sees the vet and where
they eat (zh + en, every backend): a switch supersedes the old value and a question reaches the
slot. Before, "开了腾讯视频会员，爱奇艺没续了" and "猫粮换成渴望了" reached no
slot: the catalogue had none, the turns stayed episodes and the question found the old value's
turn as readily as the new one's. A pet's food is the pet's when its kind is said ("猫粮换成…"),
and an option weighed is no subscription."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import held, say_apart, switched_and_answered


@pytest.mark.parametrize(
    ("turns", "question", "key", "was", "now"),
    [
        (
            [
                "爱奇艺会员快到期了，主要看综艺，推荐几个",
                "开了腾讯视频会员，就为了追那个新剧，爱奇艺没续了。有啥类似的剧推荐",
            ],
            "我现在充的是哪家视频会员",
            "video_streaming",
            "爱奇艺",
            "腾讯视频",
        ),
        (
            [
                "We've had Netflix for years, any good thrillers on there right now?",
                "Cancelled Netflix, it's just Disney+ now for the kids. What Marvel order should we watch?",
            ],
            "which streaming service am I paying for these days?",
            "video_streaming",
            "Netflix",
            "Disney+",
        ),
        (
            ["我一直用网易云音乐听歌，歌单怎么导出", "网易云会员到期不续了，换QQ音乐了，歌单能迁过去吗"],
            "我现在听歌用的哪个app",
            "music_streaming",
            "网易云音乐",
            "QQ音乐",
        ),
        (
            ["我家猫一直吃皇家的猫粮，最近有点软便，是粮的问题吗", "猫粮换成渴望了，过渡一周，软便好多了"],
            "我家猫现在吃的哪个牌子的粮",
            "pet_food",
            "皇家",
            "渴望",
        ),
    ],
    ids=["zh-video", "en-video", "zh-music", "zh-pet-food"],
)
def test_a_switched_subscription_or_food_supersedes_and_answers(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, key: str, was: str, now: str
) -> None:
    switched_and_answered(mem_e5, clock, turns, question, key, now)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("我家猫一直吃的渴望，最近掉毛厉害，要不要换粮", "pet_food", "渴望"),
        (
            "Our cat Miso goes to Riverside Animal Hospital, what shots does she need at 3?",
            "vet",
            "Riverside Animal Hospital",
        ),
        ("我们家狗打疫苗一直去瑞鹏宠物医院，狂犬疫苗多久打一次", "vet", "瑞鹏宠物医院"),
        ("我们聚餐最常去的是海底捞，服务好，帮我想想生日怎么安排", "favorite_restaurant", "海底捞"),
    ],
    ids=["zh-pet-food", "en-vet", "zh-vet", "zh-restaurant"],
)
def test_a_slot_said_in_passing_is_read(
    mem_e5: Memory, clock: FixedClock, text: str, key: str, value: str
) -> None:
    say_apart(mem_e5, clock, [text], gap_days=1)
    recs = mem_e5.records(user="u", statuses=["active", "candidate"])
    assert value in {r.value for r in recs if r.key == key}, [(r.subject, r.key, r.value) for r in recs]


@pytest.mark.parametrize(
    "text",
    [
        "Netflix和爱奇艺哪个值得开？主要看美剧",
        "Is Spotify or Apple Music better for podcasts?",
    ],
    ids=["zh", "en"],
)
def test_an_option_weighed_is_no_subscription(mem_e5: Memory, clock: FixedClock, text: str) -> None:
    say_apart(mem_e5, clock, [text], gap_days=1)
    assert not held(mem_e5, ("video_streaming", "music_streaming"))
