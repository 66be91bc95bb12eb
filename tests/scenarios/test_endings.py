"""An ending said by itself ends the value held: "腾讯视频会员退订了", "飞度上个月卖了", "跟阿杰分手了",
"cancelled Spotify", "sold the Mazda" — the open record of that value is invalidated from the
turn on, nothing new is written, and a value ended before it was ever held is not stored as
held; what someone else ended, or an ending only considered, changes nothing (zh + en, every
backend, rules only and with the attribute model).

Before: the held record stayed active (the subscription, the car, the boyfriend's name), and
"sold the Civic"-like turns added the sold car as a second active vehicle."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from memquill.model import Status
from tests.support.sessions import say, say_apart

ENDS = [
    (["我们家开的是腾讯视频会员，周末追剧用", "腾讯视频会员退订了，续费太贵"], "video_streaming", "腾讯视频"),
    (["我开的是一辆白色的本田飞度", "飞度上个月卖了，现在坐地铁上班"], "vehicle", "本田飞度"),
    (["我男朋友叫阿杰，在银行上班", "跟阿杰分手了，心情很差"], "name", "阿杰"),
    (
        ["I've got a Spotify family plan for the house", "cancelled Spotify, we just use the radio now"],
        "music_streaming",
        "Spotify",
    ),
    (
        ["I drive a 2017 Mazda 3, great on fuel", "sold the Mazda last weekend, going car-free for a while"],
        "vehicle",
        "Mazda 3",
    ),
]


def _records(mem: Memory, key: str, value: str) -> list[tuple[Status, object]]:
    return [
        (r.status, r.valid_to)
        for r in mem.records(user="u", statuses=None)
        if r.key == key and (r.value or "").casefold() == value.casefold()
    ]


@pytest.mark.parametrize(
    ("turns", "key", "value"),
    ENDS,
    ids=["zh-subscription", "zh-car-by-its-model", "zh-partner", "en-subscription", "en-car-by-its-make"],
)
def test_an_ending_said_by_itself_ends_the_value_held(
    mem_e5: Memory, clock: FixedClock, turns: list[str], key: str, value: str
) -> None:
    _said_then_ended(mem_e5, clock, turns, key, value)


@pytest.mark.parametrize(
    ("turns", "key", "value"), [ENDS[0], ENDS[3]], ids=["zh-subscription", "en-subscription"]
)
def test_an_ending_ends_the_value_held_in_both_modes(
    mem_modes: Memory, clock: FixedClock, turns: list[str], key: str, value: str
) -> None:
    _said_then_ended(mem_modes, clock, turns, key, value)


def _said_then_ended(mem: Memory, clock: FixedClock, turns: list[str], key: str, value: str) -> None:
    say(mem, clock, [turns[0]], "s0", gap_days=30)
    assert _records(mem, key, value), [(r.key, r.value) for r in mem.records(user="u", statuses=None)]
    ended_at = clock.now()
    say(mem, clock, [turns[1]], "s1")
    recs = _records(mem, key, value)
    assert recs and all(s is Status.INVALIDATED for s, _ in recs), recs
    assert all(v is not None and ended_at <= v <= clock.now() for _, v in recs), recs  # held until then
    open_values = [r.value for r in mem.records(user="u", statuses=["active", "candidate"]) if r.key == key]
    assert not [v for v in open_values if v and value.split()[-1].casefold() in v.casefold()], open_values


@pytest.mark.parametrize(
    "turns",
    [
        ["I've got a Spotify family plan for the house", "my sister cancelled her Spotify last month"],
        ["I've got a Spotify family plan for the house", "thinking of cancelling Spotify, is it worth it?"],
        ["我们家开的是腾讯视频会员，周末追剧用", "朋友说她把腾讯视频会员退订了，我还在犹豫"],
    ],
    ids=["en-someone-elses", "en-only-considered", "zh-someone-elses"],
)
def test_an_ending_not_the_users_own_changes_nothing(
    mem_modes: Memory, clock: FixedClock, turns: list[str]
) -> None:
    say_apart(mem_modes, clock, turns, gap_days=30)
    statuses = [r.status for r in mem_modes.records(user="u", statuses=None) if r.key.endswith("_streaming")]
    assert statuses and Status.INVALIDATED not in statuses, statuses


@pytest.mark.parametrize(
    ("turn", "key", "value"),
    [
        ("朗逸上周卖了，换成坐公交", "vehicle", "朗逸"),
        ("Sold my Kindle yesterday, paper books from now on", "device", "Kindle"),
    ],
    ids=["zh", "en"],
)
def test_a_value_ended_before_it_was_held_is_not_stored_as_held(
    mem_modes: Memory, clock: FixedClock, turn: str, key: str, value: str
) -> None:
    say(mem_modes, clock, [turn], "s0")
    held = [r.value for r in mem_modes.records(user="u", statuses=["active", "candidate"]) if r.key == key]
    assert value not in held, held


@pytest.mark.parametrize(
    ("turns", "sold", "bought"),
    [
        (["我开的是一辆丰田凯美瑞", "凯美瑞上周卖了 换了台理想L6 空间大多了"], "丰田凯美瑞", "理想L6"),
        (
            ["I drive a 2016 Subaru Outback", "sold the Outback and picked up a Kia EV6, loving it so far"],
            "Subaru Outback",
            "Kia EV6",
        ),
    ],
    ids=["zh", "en"],
)
def test_the_car_bought_after_the_one_sold_is_the_users(
    mem_e5: Memory, clock: FixedClock, turns: list[str], sold: str, bought: str
) -> None:
    """The new car stays, the user's ("凯美瑞上周卖了" names a car, not a person called 凯美瑞)."""
    say_apart(mem_e5, clock, turns, gap_days=30)
    cars = {(r.subject, r.value) for r in mem_e5.records(user="u", statuses=["active"]) if r.key == "vehicle"}
    assert ("user", bought) in cars and not [v for _, v in cars if v and sold.split()[-1][-2:] in v], cars


@pytest.mark.parametrize(
    ("turns", "key", "value"),
    [
        (["我住在深圳，南山这边", "我姐离开深圳了，去了杭州一家电商公司"], "city", "深圳"),
        (
            ["I drive a 2016 Subaru Outback", "my brother sold his Outback to a guy from work"],
            "vehicle",
            "Subaru Outback",
        ),
    ],
    ids=["zh-sister-left", "en-brother-sold"],
)
def test_what_a_relative_ended_leaves_the_users_value(
    mem_e5: Memory, clock: FixedClock, turns: list[str], key: str, value: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=30)
    recs = _records(mem_e5, key, value)
    assert recs and Status.INVALIDATED not in [s for s, _ in recs], recs


@pytest.mark.parametrize(
    ("turns", "subject", "name"),
    [
        (["我室友叫小周，在医院上班", "小周下个月搬走了，得重新找人合租"], "person:roommate", "小周"),
        (
            [
                "My roommate is Sam, he works nights at the hospital",
                "Sam moved out last weekend, the flat's so quiet now",
            ],
            "person:roommate",
            "Sam",
        ),
    ],
    ids=["zh-roommate-moved-out", "en-roommate-moved-out"],
)
def test_a_roommate_who_moved_out_is_no_longer_the_roommate(
    mem_e5: Memory, clock: FixedClock, turns: list[str], subject: str, name: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=30)
    names = [
        (r.status, r.value)
        for r in mem_e5.records(user="u", statuses=None)
        if r.subject == subject and r.key == "name"
    ]
    assert names and all(s is Status.INVALIDATED for s, v in names if v == name), names
