"""A person named beside their relation (``appositions.relation_names``), zh + en: the name
is found with its honorific and without a possessive, and words that name no one are not."""

from __future__ import annotations

import pytest

from memquill.write.extract.appositions import relation_names


@pytest.mark.parametrize(
    ("text", "zh", "expected"),
    [
        ("my colleague Tobias is a huge Celtic fan", False, [("colleague", "Tobias")]),
        ("So my boss, Marguerite, signed off on my leave", False, [("manager", "Marguerite")]),
        ("my therapist Dr. Helena Voss retired last year", False, [("therapist", "Dr. Helena Voss")]),
        ("remember my nephew Felix's birthday is in May", False, [("nephew", "Felix")]),
        ("I run a bakery with my husband Tom", False, [("husband", "Tom")]),
        ("my mom I think is right", False, []),
        ("my manager Monday said no", False, []),
        ("my friend's Tesla broke down", False, []),
        ("我同事韩雪从下个月开始休假", True, [("colleague", "韩雪")]),
        ("这事由我同事小李牵头", True, [("colleague", "小李")]),
        ("我儿子叫豆丁，今年三岁", True, [("son", "豆丁")]),
        ("我领导叫Oliver Brandt，德国人", True, [("manager", "Oliver Brandt")]),
        ("我闺蜜许静怡2026年12月从悉尼回来", True, [("friend", "许静怡")]),
        ("新领导郑凯第一次一对一就问我三年职业规划", True, [("manager", "郑凯")]),  # was never read
        ("同事小王说要请客", True, [("colleague", "小王")]),
        ("领导说明天开会", True, []),
        ("我妈叫我回家吃饭", True, []),
        ("我朋友老家是湖南的", True, []),
        ("我同事小时候很胖", True, []),
        ("我表妹在苏州做护士", True, []),
        ("我老板老是加班", True, []),
        # the catalogue's named_by phrases and appositions after the name
        ("组织架构又调了，现在我们组归马骁管，他从阿里过来的", True, [("manager", "马骁")]),
        ("组里现在是马骁接手了", True, [("manager", "马骁")]),
        ("周凯调去别的事业部了，新来的领导叫黄敏", True, [("manager", "黄敏")]),
        ("新组长叫刘婷，据说特别严", True, [("manager", "刘婷")]),
        ("这事归我管", True, []),
        ("血压高，医生叫少吃盐，可我天天跟卤水打交道", True, []),  # 叫 there bids, it names no one
        ("Rohit's left for a startup, so Meera's taken over the team", False, [("manager", "Meera")]),
        ("Anand (our new EM) approved my leave", False, [("manager", "Anand")]),
        ("Also my new lead is Declan, he's lovely", False, [("manager", "Declan")]),
        ("I report to Dana Kim now", False, [("manager", "Dana Kim")]),
        ("the new intern has taken over the team kitchen", False, []),
        # a surname and a title; a word saying which kind of relation (never with 的 or a pronoun)
        ("研究生导师周教授发邮件，让我先读十篇论文", True, [("mentor", "周教授")]),
        ("我导师王教授是做 NLP 的", True, [("mentor", "王教授")]),
        ("我高中同学阿伟现在是律师", True, [("classmate", "阿伟")]),
        ("朋友的领导李总人不错", True, []),
        ("My thesis advisor Dr. Patel wants more ablations", False, [("mentor", "Dr. Patel")]),
        ("my climbing partner Jules is the only person I trust on belay", False, []),
        ("my new partner Jules cooks", False, [("partner", "Jules")]),
        # a nickname of a Latin name; a new one said to
        ("我的新领导阿May人很好", True, [("manager", "阿May")]),
        ("我同事小K下周离职", True, [("colleague", "小K")]),
        ("帮我写封邮件给新领导阿May，介绍一下自己", True, [("manager", "阿May")]),
        ("给领导发个消息，说我晚点到", True, []),
        # a relation word Chinese says in Latin letters; a new one opening the clause without "my"
        ("新leader陈姐让我周五前出一份技术方案", True, [("manager", "陈姐")]),
        ("new gp, Dr Nguyen at the clinic on booth st, wants bloods done", False, [("doctor", "Dr Nguyen")]),
        ("New manager Priya starts Monday", False, [("manager", "Priya")]),
        ("new phone, Pixel 8, loving it", False, []),
    ],
)
def test_relation_names(text: str, zh: bool, expected: list[tuple[str, str]]) -> None:
    assert relation_names(text, zh) == expected
