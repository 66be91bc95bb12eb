"""Whom a clause is about, from its words (the model's kind aside)."""

from __future__ import annotations

import pytest

from memquill.write.extract import subjects
from memquill.write.extract.subjects import person_name, subject_for


@pytest.mark.parametrize(
    ("clause", "name"),
    [
        ("周琴是成都人", "周琴"),
        ("小李现在在深圳", "小李"),
        ("阿杰最近很忙", "阿杰"),
        ("Dana's birthday is in May", "Dana"),
        ("现在不在杭州了", None),  # was read as a person "现在不"
        ("最近在学吉他", None),
        ("昨天的会很长", None),
        # jieba tags 手机 and 豆豆 both 'n'; its dictionary knows the one as a common word
        ("手机现在用的是小米14", None),  # was read as person:手机
        ("电脑是联想的，用了五年", None),
        ("豆豆现在三岁了", "豆豆"),
        ("团团最近很乖", "团团"),
        ("李娜在北京工作", "李娜"),
        ("Phone's an iPhone 15 now", None),  # was read as person:Phone
        ("Car's a Civic these days", None),
    ],
)
def test_a_name_the_clause_starts_with_is_whole_words_none_a_function_word(
    clause: str, name: str | None
) -> None:
    assert person_name(clause) == name


@pytest.mark.parametrize("clause", ["现在不在杭州了", "最近在上海上班"])
def test_a_clause_starting_with_a_time_word_is_about_no_one_named(clause: str) -> None:
    assert subject_for(clause, "person", None) is None


@pytest.mark.parametrize(
    ("clause", "subject"),
    [
        ("Mum's moved to Freiburg", "person:mother"),  # a relation said without "my"
        ("Mum is in Lübeck now", "person:mother"),
        ("She's the one who just changed jobs", None),  # a pronoun is no name
        ("Matcha's been great btw", None),  # a drink is no one
        ("Priya's into pottery", "person:Priya"),
    ],
)
def test_a_capitalised_opener_is_a_person_only_when_it_names_one(clause: str, subject: str | None) -> None:
    assert subject_for(clause, "person", None) == subject


@pytest.mark.parametrize(
    ("clause", "relation"),
    [
        ("Also I've gone fully vegan since New Year (my boyfriend's influence)", None),
        ("I moved to Denver with my sister", None),
        ("陪我妈去了趟医院", None),
        ("Had dinner with my mom, she just moved to Lisbon", "mother"),  # a pronoun takes her up
        ("my sister works at Google", "sister"),
        ("同事说她坐飞机只选第一排，腿能伸开", "colleague"),  # named without "my", reporting on her
        ("领导说看我迁移做得不错，把我提成了架构师", None),  # reporting on the user
    ],
)
def test_a_relation_beside_the_user_is_not_whom_the_clause_is_about(
    clause: str, relation: str | None
) -> None:
    found = subjects.relation(clause)
    assert (found[0] if found else None) == relation


@pytest.mark.parametrize(
    ("clause", "opening"),
    [
        ("老公跳槽去比亚迪了，做电池管理系统", "husband"),
        ("最近女朋友刚换了iPhone 15 Pro，天天在我面前晃", "partner"),
        ("朋友圈里都在晒娃", None),  # a longer dictionary word
        ("老板娘说鱼很新鲜", None),
        ("领导说看我迁移做得不错", None),  # the person speaks: reported speech decides
        ("老公司的同事都走了", None),  # no whole word
        ("我老公在华为", None),  # "我" before it: ``relation`` reads it
        ("Mum has moved to Freiburg", None),  # Chinese only
    ],
)
def test_a_bare_chinese_relation_opening_a_clause(clause: str, opening: str | None) -> None:
    """The relation, and where its segment ends (the first comma)."""
    expected = (opening, clause.index("，")) if opening else None
    assert subjects.bare_opening(clause) == expected


@pytest.mark.parametrize(
    ("said", "turn", "topic"),
    [
        (
            "护士不干了，跑去做房产中介，我妈气得两天没吃下饭",
            "我姐辞职了！护士不干了，跑去做房产中介，我妈气得两天没吃下饭",
            "person:sister",
        ),
        ("Works as a carpenter now", "My brother left the bank. Works as a carpenter now", "person:brother"),
        ("我现在在卖保险", "我姐辞职了！我现在在卖保险", None),  # the user opens it
        ("我妈不跳舞了", "我姐辞职了！我妈不跳舞了", None),  # names its own person
        ("跑去做房产中介", "跑去做房产中介", None),  # nothing before it
    ],
)
def test_a_subjectless_sentence_continues_the_one_before(said: str, turn: str, topic: str | None) -> None:
    assert subjects.carried(said, turn) == topic


@pytest.mark.parametrize(
    ("clause", "subject"),
    [
        ("工资卡是招行的，想办张信用卡", "user"),  # a thing opens the clause, not a person
        ("周琴是成都人", "person:周琴"),
    ],
)
def test_a_chinese_opener_is_a_person_only_when_it_reads_as_a_name(clause: str, subject: str) -> None:
    assert subject_for(clause, "user", None) == subject


@pytest.mark.parametrize(
    ("clause", "subject"),
    [
        ("my neighbor got me into pickleball", "user"),
        ("邻居带我入坑了匹克球", "user"),
        ("my neighbor plays pickleball", "person:neighbor"),
    ],
)
def test_whoever_drew_the_user_into_something_is_not_whom_the_clause_is_about(
    clause: str, subject: str
) -> None:
    assert subject_for(clause, "user", None) == subject


@pytest.mark.parametrize(
    ("clause", "subject"),
    [
        ("Mark signed with Amazon, starts July 7", "person:Mark"),  # a name that is also a noun
        ("Maya starts at Maple Grove this fall", "person:Maya"),
        ("Matcha got expensive so I stopped", "user"),
        ("Phone's an iPhone 15 now", "user"),
    ],
)
def test_a_given_name_opening_a_sentence_is_that_person(clause: str, subject: str) -> None:
    assert subject_for(clause, "user", None) == subject


@pytest.mark.parametrize(
    ("before", "who"),
    [
        ("Dana just ", "Dana"),  # "Dana just accepted an offer at Lurie Children's"
        ("So I finally ", None),
        ("Dana and I ", None),  # the speaker is in it
        ("Matcha ", None),
    ],
)
def test_whom_an_english_rule_match_is_said_of(before: str, who: str | None) -> None:
    assert subjects.named_doer(before) == who


@pytest.mark.parametrize(
    ("clause", "value", "who"),
    [
        ("we're moving Maya to Maple Grove Montessori this fall", "Maple Grove Montessori", "Maya"),
        ("乐乐9月要转园了，新的叫蒲公英幼儿园", "蒲公英幼儿园", "乐乐"),
        ("我们准备让小宇转到育才中学", "育才中学", "小宇"),
        ("I switched gyms to Crunch on Main", "Crunch", None),
        ("我们搬到了望京", "望京", None),
    ],
)
def test_the_person_a_clause_names(clause: str, value: str, who: str | None) -> None:
    assert subjects.named_person(clause, value) == who
