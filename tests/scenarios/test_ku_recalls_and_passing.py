"""An outdated value leaves a slot answer's company even when the turn naming it is not read
as the attribute: a turn naming an older value of the slot's kind in passing ("the dumplings
here in Wuxi…") said before the newest statement, and a turn recalling an earlier value
("以前…的时候", "back when…") whatever its time — a present cue in a clause about something
else ("…，现在想都别想") does not make a recall current (zh + en, every backend)."""

from __future__ import annotations

import pytest

from memquill import Memory
from memquill.clock import FixedClock
from tests.support.sessions import say


def stated(mem: Memory, question: str, **kw: object) -> list[str]:
    return [f"{h.memory.value or ''} {h.memory.content}" for h in mem.search(question, user="u", k=5, **kw)]


def only_old(texts: list[str], was: str, now: str) -> list[str]:
    return [t for t in texts if was.casefold() in t.casefold() and now.casefold() not in t.casefold()]


@pytest.mark.parametrize(
    ("first", "passing", "new", "question", "was", "now"),
    [
        (
            "我住在南京。",
            "无锡这边的小笼包真不错，来了一个月胖了两斤。",
            "我搬到苏州了。",
            "我现在住哪个城市？",
            "无锡",
            "苏州",
        ),
        (
            "I live in Leeds.",
            "The cafés in York are lovely, two weeks here and I already have favourites.",
            "I moved to Bristol.",
            "where do I live now?",
            "York",
            "Bristol",
        ),
    ],
)
def test_an_older_value_named_in_passing_in_an_episode_is_left_out(
    mem_modes: Memory,
    clock: FixedClock,
    first: str,
    passing: str,
    new: str,
    question: str,
    was: str,
    now: str,
) -> None:
    say(mem_modes, clock, [first], "s1", gap_days=20)
    say(mem_modes, clock, [passing], "s2", gap_days=20)
    say(mem_modes, clock, [new], "s3", gap_days=20)
    shown = stated(mem_modes, question)
    assert now in shown[0]
    assert not only_old(shown, was, now)
    assert only_old(stated(mem_modes, question, include_history=True), was, now)


@pytest.mark.parametrize(
    ("now_said", "recalled", "question", "was", "now"),
    [
        (
            "这半年出差都改坐海南航空了，餐食还不错。",
            "以前坐国航的时候老是延误，现在想想都头疼。",
            "我现在一般坐哪家航空？",
            "国航",
            "海南航空",
        ),
        (
            "记账小程序的后端已经迁到阿里云了。",
            "8月的云账单比之前在AWS的时候便宜了四成，帮我做个对比表格。",
            "记账小程序的后端现在部署在哪个云上？",
            "AWS",
            "阿里云",
        ),
        (
            "I've switched to Neovim for all my coding.",
            "Back when I used Emacs my pinky always hurt, now I can't imagine it.",
            "which editor do I use?",
            "Emacs",
            "Neovim",
        ),
    ],
)
def test_a_recall_with_a_present_word_about_something_else_stays_history(
    mem_modes: Memory,
    clock: FixedClock,
    now_said: str,
    recalled: str,
    question: str,
    was: str,
    now: str,
) -> None:
    say(mem_modes, clock, [now_said], "s1", gap_days=20)
    say(mem_modes, clock, [recalled], "s2", gap_days=20)
    shown = stated(mem_modes, question)
    assert now in shown[0]
    assert not only_old(shown, was, now)
    assert only_old(stated(mem_modes, question, include_history=True), was, now)


@pytest.mark.parametrize(
    ("first", "new", "missed", "question", "was", "now"),
    [
        (
            "我住在北京。",
            "我搬到大理了，天天晒太阳。",
            "有点怀念北京的烤鸭，大理这边吃不到正宗的。",
            "我这阵子住在哪儿？",
            "北京",
            "大理",
        ),
        (
            "I live in Leeds.",
            "Just moved to Bristol, the flat is tiny.",
            "I still miss Leeds sometimes, especially Kirkgate Market on a Saturday.",
            "Where am I based these days?",
            "Leeds",
            "Bristol",
        ),
    ],
)
def test_missing_a_place_recalls_it(
    mem_modes: Memory,
    clock: FixedClock,
    first: str,
    new: str,
    missed: str,
    question: str,
    was: str,
    now: str,
) -> None:
    """ "I still miss Leeds sometimes…" said after the move to Bristol led "where am I based"."""
    say(mem_modes, clock, [first], "s1", gap_days=20)
    say(mem_modes, clock, [new], "s2", gap_days=20)
    say(mem_modes, clock, [missed], "s3", gap_days=20)
    shown = stated(mem_modes, question)
    assert now in shown[0]
    assert not only_old(shown, was, now)


# (older mention, newest statement, question, older value, current value) per rule, zh + en
_BESIDE_ANOTHER = [  # an own sentence beside someone else's ("my flatmate Jess uses Starling")
    (
        "在考虑换银行，招行又扣了我二十块年费。我室友用的是平安银行，说还行",
        "工资卡已经全部转到中信银行了，招行的卡也注销了。",
        "我现在用哪家银行？",
        "招行",
        "中信银行",
    ),
    (
        "thinking of switching banks, Barclays just charged me £35 for an overdraft. my flatmate Jess uses Starling and loves it",
        "all moved over to Monzo now, old account closed.",
        "who do I bank with now?",
        "Barclays",
        "Monzo",
    ),
]
_OPTION_ASKED = [  # the current value named only as an option in a question ("Monzo or Starling?")
    (
        "招行又扣了我二十块年费，太坑了。中信银行怎么样？",
        "工资卡已经全部转到中信银行了，招行的卡也注销了。",
        "我现在用哪家银行？",
        "招行",
        "中信银行",
    ),
    (
        "Barclays just charged me £35 for an overdraft I was in for one day. Monzo or Starling?",
        "all moved over to Monzo now, old account closed.",
        "who do I bank with now?",
        "Barclays",
        "Monzo",
    ),
]
_KNOWN_NAME = [  # a turn opening with the name of a person filed under it ("person:乐乐")
    (
        "乐乐在小树苗幼儿园老是被同一个小朋友推，我该怎么跟老师沟通比较好？ 帮我写一段发给班主任的微信",
        "乐乐9月要转园了，新的叫蒲公英幼儿园，离我家近。",
        "乐乐现在在哪个幼儿园？",
        "小树苗",
        "蒲公英",
    ),
    (
        "Maya keeps getting pushed by the same kid at Lincoln Elementary, how do I bring it up with her teacher?",
        "we're moving Maya to Maple Grove Montessori this fall, class sizes at her old school got huge.",
        "which school does Maya go to now?",
        "Lincoln",
        "Maple Grove",
    ),
]


@pytest.mark.parametrize(
    ("passing", "new", "question", "was", "now"),
    [
        *(pytest.param(*c, id=f"beside-another-{i}") for i, c in enumerate(_BESIDE_ANOTHER)),
        *(pytest.param(*c, id=f"option-asked-{i}") for i, c in enumerate(_OPTION_ASKED)),
        *(pytest.param(*c, id=f"known-name-{i}") for i, c in enumerate(_KNOWN_NAME)),
    ],
)
def test_an_older_mention_the_timeline_had_missed_is_left_out(
    mem_e5: Memory, clock: FixedClock, passing: str, new: str, question: str, was: str, now: str
) -> None:
    """An older mention never read as the attribute still leaves the answer's company: a
    sentence about the user in a turn whose first relation is someone else's ("Barclays just
    charged me £35. my flatmate Jess uses Starling"), a turn naming the current value only as
    an option in a question ("Monzo or Starling?"), and a turn opening with the name of a
    person filed under it ("乐乐在小树苗幼儿园…"). The attribute model reads stored turns."""
    say(mem_e5, clock, [passing], "s1", gap_days=20)
    say(mem_e5, clock, [new], "s2", gap_days=40)
    shown = stated(mem_e5, question)
    assert now in shown[0]
    assert not only_old(shown, was, now)
