"""The Chinese third-person rewrite replaces pronouns, not the characters inside words."""

import pytest

from memquill.write.extract.phrasing import third_person


@pytest.mark.parametrize(
    ("clause", "stored"),
    [
        ("先自我介绍一下，我叫陈雨桐", "先自我介绍一下，用户叫陈雨桐"),
        ("我买了台迷你主机", "用户买了台迷你主机"),
        ("工作起来容易忘我", "工作起来容易忘我"),
        ("你帮我记一下，我不喝咖啡", "助手帮用户记一下，用户不喝咖啡"),
        # "我们全家" / "咱家" is the user's household, not a team
        ("我们全家搬到杭州了", "用户全家搬到杭州了"),
        ("咱家狗狗叫豆豆", "用户家狗狗叫豆豆"),
        ("我们组下周上线", "用户的团队下周上线"),
        ("你好，先报个名字：陈雨晴", "你好，先报个名字：陈雨晴"),
        ("您好，请你帮我看看", "您好，请助手帮用户看看"),
    ],
)
def test_pronouns_not_word_parts(clause: str, stored: str) -> None:
    assert third_person(clause, "zh") == stored


@pytest.mark.parametrize(
    ("clause", "language", "team", "stored"),
    [
        # "we" outside a project is the speaker, not a team
        ("我爸跟我们住", "zh", None, "用户爸跟用户住"),
        ("我们俩异地，时差七个小时", "zh", None, "用户和对方异地，时差七个小时"),
        ("我们下周上线", "zh", "项目 kanban ", "项目 kanban下周上线"),
        ("我们两口子都不吃辣", "zh", "项目 kanban ", "用户两口子都不吃辣"),  # a household in a project
        (
            "Gran was diagnosed, so we're adjusting",
            "en",
            None,
            "Gran was diagnosed, so the user is adjusting",
        ),
        (
            "Pixel, our rescue greyhound, sleeps all day",
            "en",
            None,
            "Pixel, the user's rescue greyhound, sleeps all day",
        ),
        ("Between us: I'm applying elsewhere", "en", None, "Between us: the user is applying elsewhere"),
        ("We ship on Fridays", "en", "project kanban", "Project kanban ships on Fridays"),
        ("We never cook meat at home", "en", "project kanban", "The user never cooks meat at home"),
    ],
)
def test_we_is_the_user_unless_a_project_works(
    clause: str, language: str, team: str | None, stored: str
) -> None:
    assert third_person(clause, language, team) == stored
