"""Who the user is, read right (Chinese and English, both backends): a city said in passing
is the user's city, a relative's city or a partner's job is not the user's."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from tests.support.sessions import say

PASSING = [
    (
        "我们洛阳这几天牡丹全开了，满城都是游客，出个门堵得要命。",
        "洛阳",
        "帮我给这个函数写几个单元测试。",
    ),
    (
        "Lashing rain in Cork again, shocking, nobody could have predicted it.",
        "Cork",
        "Write unit tests for this parser.",
    ),
]


@pytest.mark.parametrize(("home", "city", "request_"), PASSING)
def test_a_city_said_in_passing_is_in_every_profile(
    mem_read: Memory, clock: FixedClock, home: str, city: str, request_: str
) -> None:
    """The classifier reads the turn as weather or an event; the gazetteer names the city,
    and who the user is belongs to every block, a project task's too."""
    say(mem_read, clock, [home], "s1")
    ctx = mem_read.context(request_, user="u", project="shop", budget_tokens=300)
    lines = [i for i in ctx.items if city in i.text]
    assert lines and lines[0].section == "profile" and lines[0].why["attribute"] == "city", ctx.text
    assert ctx.tokens <= 300


OTHERS = [
    (
        ["我女朋友在成都工作，我们异地两年了。", "我女朋友是甜点师，做的蛋糕特别好吃。"],
        ["成都", "甜点"],
        "帮我给这个函数写几个单元测试。",
    ),
    (
        [
            "My girlfriend works in Chengdu, we've been long-distance for two years.",
            "My girlfriend is a pastry chef.",
        ],
        ["Chengdu", "pastry"],
        "Write unit tests for this parser.",
    ),
]


@pytest.mark.parametrize(("turns", "words", "request_"), OTHERS)
def test_a_partners_city_and_job_are_not_the_users_identity(
    mem_read: Memory, clock: FixedClock, turns: list[str], words: list[str], request_: str
) -> None:
    """Identity is shown whatever the request — so it must be the user's own: a sentence
    about someone in the user's life does not fill the user's city or occupation."""
    say(mem_read, clock, turns[:1], "s1")
    say(mem_read, clock, turns[1:], "s2")
    ctx = mem_read.context(request_, user="u", project="shop", budget_tokens=300)
    for word in words:
        assert word not in ctx.text, ctx.text


TURNS = [
    (
        "肉是一口都不碰的，鱼和海鲜倒是照吃。这习惯二十多岁就有了。",
        ["一口都不碰", "二十多岁"],
        "推荐一道周五晚上能做的家常晚饭。",
    ),
    (
        "Fish yes, meat no. Been that way since my twenties.",
        ["meat no", "twenties"],
        "Suggest a dinner recipe for Friday night.",
    ),
]


@pytest.mark.parametrize(("turn", "words", "request_"), TURNS)
def test_a_profile_line_from_an_episode_shows_the_users_whole_turn(
    mem_read: Memory, clock: FixedClock, turn: str, words: list[str], request_: str
) -> None:
    """The sentence the classifier reads as a standing constraint comes with the rest of the
    turn that says it (its reason, its qualifier), once."""
    say(mem_read, clock, [turn], "s1")
    ctx = mem_read.context(request_, user="u", budget_tokens=300)
    profile = [i for i in ctx.items if i.section == "profile"]
    assert any(all(w in i.text for w in words) for i in profile), ctx.text
    assert sum(ctx.text.count(w) for w in words[:1]) == 1, ctx.text


GLUED = [
    (
        ["哈哈，有道理", "我在杭州一家做园林设计的公司上班，主要做公园和广场。"],
        "广场",
        "帮我写一段简短的个人介绍。",
    ),
    (
        ["haha fair enough", "I design public gardens and plazas at Cedar & Stone Design."],
        "plazas",
        "Write a short bio for me.",
    ),
]


@pytest.mark.parametrize(("turns", "word", "request_"), GLUED)
def test_a_turn_glued_to_a_filler_is_not_shown_twice(
    mem_read: Memory, clock: FixedClock, turns: list[str], word: str, request_: str
) -> None:
    """An episode's full wording joins a filler turn without an end mark to the next turn;
    putting back what compression left out must not repeat the turn the content holds."""
    say(mem_read, clock, turns, "s1")
    ctx = mem_read.context(request_, user="u", budget_tokens=800)
    assert ctx.text.count(word) == 1, ctx.text


BEARING = [
    (
        "香菜绝对不行。那个味道受不了。",
        "香菜",
        "推荐一份适合工作前吃的早餐。",
        "帮我给这个函数写几个单元测试。",
    ),
    (
        "Mushrooms are a hard no. It's a texture thing.",
        "Mushrooms",
        "Plan a menu for my dinner party.",
        "Write unit tests for this parser.",
    ),
]


@pytest.mark.parametrize(("turn", "word", "bears", "unrelated"), BEARING)
def test_a_turn_stating_what_the_request_bears_on_is_a_profile_line(
    mem_read: Memory, clock: FixedClock, turn: str, word: str, bears: str, unrelated: str
) -> None:
    """No sentence of the turn reaches the bar of a standing fact alone, and compression
    may leave it out; read whole, it states a food dislike, which a menu bears on and a
    coding task does not."""
    say(
        mem_read,
        clock,
        ["I work at a logistics firm." if word.isascii() else "我在一家物流公司上班。", turn],
        "s1",
    )
    ctx = mem_read.context(bears, user="u", budget_tokens=300)
    assert any(i.section == "profile" and word in i.text for i in ctx.items), ctx.text
    assert word not in mem_read.context(unrelated, user="u", project="shop", budget_tokens=300).text


@pytest.mark.parametrize(
    ("assistant", "user_turn", "ask", "city"),
    [
        (
            "Sure! By the way, lashing rain in Cork again today, so a warm stew fits.",
            "A stew sounds great, thanks",
            "recommend a restaurant near me",
            "Cork",
        ),
        (
            "好的！顺便说一句，洛阳这几天牡丹全开了，适合出去走走。",
            "好主意，谢谢",
            "推荐一家附近的餐厅",
            "洛阳",
        ),
    ],
)
def test_the_assistants_words_are_no_profile_line(
    mem_read: Memory, clock: FixedClock, assistant: str, user_turn: str, ask: str, city: str
) -> None:
    """A city the assistant named in passing is not where the user lives: profile lines come
    from the user's own turns only, like every statement about the user."""
    for role, text in (("assistant", assistant), ("user", user_turn)):
        clock.advance(minutes=1)
        mem_read.add(text, user="u", session="s1", role=role)
    mem_read.end_session(user="u", session="s1")
    mem_read.flush()
    block = mem_read.context(ask, user="u", budget_tokens=300)
    assert not [i for i in block.items if i.section == "profile" and city in i.text], block.text


NO_PLACE = [
    ("这边冬天暖气烧得太足了，屋里干得要命。", "暖气", "帮我给这个函数写几个单元测试。"),
    ("The weather here is so humid in summer.", "humid", "Write unit tests for this parser."),
]


@pytest.mark.parametrize(("said", "word", "request_"), NO_PLACE)
def test_a_city_line_names_a_place(
    mem_read: Memory, clock: FixedClock, said: str, word: str, request_: str
) -> None:
    """The classifier reads "the weather here…" as the user's city (0.67, 0.77 in Chinese), yet
    it names none: the profile shows no such line as who the user is (decision 0016t; at
    rent arrears read as a city, the same line leaked a private matter into every block)."""
    say(mem_read, clock, [said], "s1")
    ctx = mem_read.context(request_, user="u", project="shop", budget_tokens=300)
    assert not [i for i in ctx.items if word in i.text and i.why.get("attribute") == "city"], ctx.text
