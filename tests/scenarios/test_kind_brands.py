"""A brand the kind lexicon knows, said in a part about its domain, is the user's carrier, gym
or pet food, and supersedes the one before (zh + en, every backend, rules only and with the
attribute model): "giffgaff says I've used all my data already" after "my Vodafone contract
ends in November" answers "who's my mobile provider now?" with giffgaff.

Before: nothing said "my carrier is", so the new brand stayed in an episode and the old
one answered (a knowledge-update tuning set: the carrier, the gym, the cat's food)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, held, say, say_apart

CHANGES = [
    (
        [
            "My Vodafone contract ends in November, worth haggling?",
            "giffgaff says I've used all my data already",
        ],
        "who's my mobile provider now?",
        "mobile_carrier",
        "giffgaff",
    ),
    (
        ["我在乐刻健身办了年卡，一周去三次", "一兆韦德那个私教又在推课，一节380 值吗"],
        "我现在去的是哪家健身房",
        "gym",
        "一兆韦德",
    ),
    (
        [
            "I keep all my paper notes in Notion, 400 pages now",
            "moved everything into obsidian over the break",
        ],
        "where do i keep my notes these days",
        "notes_app",
        "obsidian",
    ),
]


@pytest.mark.parametrize(
    ("turns", "question", "key", "brand"), CHANGES, ids=["en-carrier", "zh-gym", "en-switched-into"]
)
def test_a_brand_said_in_its_domain_is_the_users_now(
    mem_modes: Memory, clock: FixedClock, turns: list[str], question: str, key: str, brand: str
) -> None:
    say_apart(mem_modes, clock, turns, gap_days=40)
    assert active_values(mem_modes, key).get("user") == {brand}, active_values(mem_modes, key)
    top = mem_modes.search(question, user="u", k=1)[0].memory
    assert (top.key, top.value) == (key, brand), (top.key, top.value, top.content)


@pytest.mark.parametrize(
    "turn",
    [
        "my mum's on EE and says she gets a better deal than me",  # someone else's
        "should I switch to giffgaff? my data runs out every month",  # a question
        "Netflix is cancelled finally, too many price hikes",  # ended
        "我妈用的是中国移动的卡，流量老不够",  # someone else's
        "要不要换到一兆韦德？听说私教不错",  # a question
        "乐刻的年卡退了，太远了",  # ended
    ],
    ids=["en-theirs", "en-question", "en-ended", "zh-theirs", "zh-question", "zh-ended"],
)
def test_a_brand_someone_elses_asked_or_ended_is_not_read(
    mem_read: Memory, clock: FixedClock, turn: str
) -> None:
    say(mem_read, clock, [turn], "s0")
    keys = ("mobile_carrier", "gym", "video_streaming")
    assert not held(mem_read, keys), held(mem_read, keys)


@pytest.mark.parametrize(
    ("turns", "key", "value"),
    [
        (
            ["上周携号转网到中国电信了，宽带也一起换了", "电信营业厅说可以免费送张副卡，流量共享"],
            "mobile_carrier",
            "中国电信",
        ),
        (["I bank with ICBC, my salary card is there", "工行的app又崩了 工资卡转账好麻烦"], "bank", "ICBC"),
    ],
    ids=["zh-short-name", "en-then-zh-short-name"],
)
def test_a_brand_said_by_its_short_or_other_language_name_is_no_change(
    mem_modes: Memory, clock: FixedClock, turns: list[str], key: str, value: str
) -> None:
    """ "电信" is 中国电信, "工行" is ICBC (``data/value_synonyms.json``): a restatement, not a switch."""
    say_apart(mem_modes, clock, turns, gap_days=20)
    assert active_values(mem_modes, key).get("user") == {value}, active_values(mem_modes, key)


@pytest.mark.parametrize(
    ("turns", "question", "brand"),
    [
        (
            [
                "中国移动的套餐每个月128 流量根本用不完",
                "客服说只能降到保号套餐 那算了",
                "转到中国电信以后信号在地库特别差 能投诉吗",
            ],
            "我这个手机号目前挂在哪家运营商",
            "中国电信",
        ),
        (
            [
                "my Vodafone bill is £30 a month",
                "they said I can only keep the number on a £5 plan",
                "giffgaff says I've used all my data already",
            ],
            "which network is my phone number on now?",
            "giffgaff",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_question_naming_the_number_asks_its_carrier(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, brand: str
) -> None:
    """ "手机号…哪家运营商" names the phone number (a fixed phrasing) and asks the carrier: the
    role word's slot is settled on, not the number's (whose newest turn was about the plan)."""
    say_apart(mem_e5, clock, turns, gap_days=30)
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert (top.key, top.value) == ("mobile_carrier", brand), (top.key, top.value, top.content)
