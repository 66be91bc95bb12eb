"""A mobile carrier and a home internet provider are slots of their own (zh + en, every backend):
a switch supersedes the old provider and a question reaches the slot, a provider's name said in
a clause about a phone plan or home internet is that provider rather than an employer
(``value_kinds.domain_kind``, the kinds' ``context`` words), and working at a telecom company
stays an employer. Before, "Ok I've switched to Telstra, … porting my number…" stored Telstra
as the user's employer and "who's my mobile carrier?" reached no slot."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import active_values, say_apart


@pytest.mark.parametrize(
    ("turns", "question", "key", "was", "now"),
    [
        (
            [
                "My phone bill with Optus just jumped to $75 a month, I use about 40GB of data.",
                "Ok I've switched to Telstra, the Optus dropouts were doing my head in. "
                "Will porting my number break my 2FA?",
            ],
            "who's my mobile carrier at the moment?",
            "mobile_carrier",
            "Optus",
            "Telstra",
        ),
        (
            [
                "我手机一直用的联通的卡，话费一个月九十多。",
                "上周携号转网到移动了，信号好多了，流量也便宜。",
            ],
            "我的手机是哪家运营商的？",
            "mobile_carrier",
            "联通",
            "移动",
        ),
        (
            [
                "Rogers internet keeps dropping every evening, I'm paying $95 a month for 500 Mbps.",
                "Rogers wanted to bump me to $110 so I switched to TekSavvy, same speed for $65. "
                "How do I set up my own router?",
            ],
            "who's my internet provider now?",
            "internet_provider",
            "Rogers",
            "TekSavvy",
        ),
        (
            [
                "我家宽带是长城宽带的，晚上网速特别慢。",
                "家里宽带换成电信的千兆了，光猫要不要换个路由器？",
            ],
            "我家宽带是哪家的？",
            "internet_provider",
            "长城宽带",
            "电信",
        ),
    ],
    ids=["en-carrier", "zh-carrier", "en-internet", "zh-internet"],
)
def test_a_switched_provider_supersedes_and_answers_its_question(
    mem_e5: Memory, clock: FixedClock, turns: list[str], question: str, key: str, was: str, now: str
) -> None:
    say_apart(mem_e5, clock, turns, gap_days=60)
    assert active_values(mem_e5, key).get("user") == {now}, active_values(mem_e5, key)
    employer = active_values(mem_e5, "employer").get("user", set())
    assert not {was, now} & employer, employer
    top = mem_e5.search(question, user="u", k=1)[0].memory
    assert top.key == key and top.value == now, (top.key, top.value, top.content)


@pytest.mark.parametrize(
    ("text", "employer"),
    [
        ("I work at Verizon on the network team, mostly tower maintenance.", "Verizon"),
        ("我在中国移动上班，做网络优化。", "中国移动"),
    ],
)
def test_working_at_a_telecom_stays_an_employer(
    mem_e5: Memory, clock: FixedClock, text: str, employer: str
) -> None:
    say_apart(mem_e5, clock, [text], gap_days=2)
    assert active_values(mem_e5, "employer").get("user") == {employer}, active_values(mem_e5, "employer")
    assert not active_values(mem_e5, "mobile_carrier"), active_values(mem_e5, "mobile_carrier")
    assert not active_values(mem_e5, "internet_provider"), active_values(mem_e5, "internet_provider")


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        ("We're all on one family plan with Vodafone, my wife and the two kids.", "person:wife"),
        ("I switched our family plan to Telstra, my brother too.", "person:brother"),
    ],
)
def test_a_provider_beside_a_relation_is_not_their_name(
    mem_e5: Memory, clock: FixedClock, text: str, relation: str
) -> None:
    """ "… with Vodafone, my wife …" read as the wife named Vodafone (the relation-name
    apposition): a kind word names a thing, not a person."""
    say_apart(mem_e5, clock, [text], gap_days=2)
    assert relation not in active_values(mem_e5, "name"), active_values(mem_e5, "name")
