"""Which clauses are questions (``patterns_common.question``): a question states nothing, so
no rule or model reading of it may become a memory. The question mark is read per clause
(``Clause.asked``), before the clause splitter cuts it off."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memquill.model import Event, Role, Scope, Trust
from memquill.write.extract.patterns import PATTERNS
from memquill.write.extract.patterns_common import question
from memquill.write.extract.rules import RuleExtractor

AT = datetime(2026, 5, 1, 9, tzinfo=UTC)


def _clauses(text: str) -> list[tuple[str, bool]]:
    event = Event(
        id="e1",
        scope=Scope.of(user="u", session="s"),
        role=Role.USER,
        source=Trust.USER,
        content=text,
        occurred_at=AT,
    )
    return [(c.text, question(c)) for c in RuleExtractor(PATTERNS).clauses(event, text)]


@pytest.mark.parametrize(
    "text",
    [
        "冬天电车续航大概打几折？",  # no question word: the mark asks
        "二手车过户一般要多久",
        "豆制品吃多了尿酸会不会高",  # A-not-A
        "这个月卡值不值",
        "上班咋走比较快",
        "Southwest has a nonstop to Columbus, right?",  # a tag question
        "Tips for the DIA security lines?",
        "Any ideas what to pack to eat on the train?",
        "Coke Zero is fine, isn't it?",
        "and vim keybindings?",  # a short fragment asked, nobody saying anything in it
        "Prisma or Drizzle?",
    ],
)
def test_a_question_is_a_question(text: str) -> None:
    assert [q for _, q in _clauses(text)] == [True]


@pytest.mark.parametrize(
    "text",
    [
        "我爸倒是啥也不干，天天去水库钓鱼",  # 啥也: nothing at all
        "他动不动就加班到十点",  # 动不动: an adverb, no A-not-A
        "没多久就搬走了",
        "网易那边没待多久，现在跳到同程了",  # 没…多久: not long, no question
        "现在不在杭州了，回长沙发展了",  # 在不在 across 现在: no A-not-A
        "Southwest has a nonstop to Columbus.",
        "The user asked what I drink.",  # reported, no question mark
        "I'm vegan now, remember?",  # short, but the speaker says something
    ],
)
def test_a_statement_is_no_question(text: str) -> None:
    assert not _clauses(text)[0][1]


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("我上周刚搬到成都，推荐几家火锅？", "我上周刚搬到成都"),
        ("我现在每天骑车上班，你觉得这样行不行", "我现在每天骑车上班"),
        (
            "I've gone fully vegan since New Year, what snacks can I bring?",
            "I've gone fully vegan since New Year",
        ),
        ("I moved to Denver, is that weird?", "I moved to Denver"),
    ],
)
def test_the_question_mark_asks_only_the_question_at_the_end_of_a_statement(
    text: str, statement: str
) -> None:
    (head, head_asked), (_, tail_asked) = _clauses(text)
    assert (head, head_asked, tail_asked) == (statement, False, True)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        (
            "got a MacBook Air M3, the old one is going to my nephew. what should I install first?",
            "got a MacBook Air M3, the old one is going to my nephew",
        ),
        ("moved to Denver last month. any good ramen spots?", "moved to Denver last month"),
    ],
)
def test_a_full_stop_ends_a_sentence_before_a_lower_case_word(text: str, first: str) -> None:
    (head, head_asked), (_, tail_asked) = _clauses(text)[:2]
    assert (head, head_asked, tail_asked) == (first, False, True)


@pytest.mark.parametrize("text", ["We need flour, sugar, etc. and some eggs", "It takes approx. three hours"])
def test_an_abbreviation_ends_no_sentence(text: str) -> None:
    assert len(_clauses(text)) == 1
