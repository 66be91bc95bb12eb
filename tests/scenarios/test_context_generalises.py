"""Context rules that do not lean on the words of one benchmark (Chinese and English, both
backends): a long sentence read clause by clause, situation cues confirmed by example
requests, identity always in the profile, personal episodes kept out of project tasks,
a venue bearing on accessibility, and the room a block has left spent on the left-out
turns of the episodes it shows."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from memquill.model import MemoryType
from tests.support.sessions import say

LONG = [
    (
        "我有乳糜泻，所以吃的东西必须完全无麸质，而且是真的很严格：共用的烤面包机或者炸锅都能让我难受好几天。",
        "乳糜泻",
        "帮我写一段公司内刊上的自我介绍。",
        "今晚想做顿晚饭，推荐个菜谱吧。",
    ),
    (
        "I have celiac disease, so everything has to be strictly gluten-free for me, and I really mean "
        "strictly: a shared toaster or a fryer is enough to make me ill for days.",
        "celiac",
        "Write a short intro about me for the company newsletter.",
        "Any ideas for a dinner recipe tonight?",
    ),
]


@pytest.mark.parametrize(("turn", "word", "unrelated", "bears"), LONG)
def test_a_long_sentence_is_private_when_one_clause_states_a_diagnosis(
    mem_read: Memory, clock: FixedClock, turn: str, word: str, unrelated: str, bears: str
) -> None:
    say(
        mem_read,
        clock,
        ["我在一家物流公司上班。" if word == "乳糜泻" else "I work at a logistics firm.", turn],
        "s1",
    )
    ctx = mem_read.context(unrelated, user="u", budget_tokens=800)
    assert word not in ctx.text.lower(), ctx.text
    ctx = mem_read.context(bears, user="u", budget_tokens=300)
    lines = [i for i in ctx.items if word in i.text.lower()]
    assert lines and lines[0].section == "profile" and lines[0].why.get("safety_critical"), ctx.text


MISFIRE = [
    (
        "我有一型糖尿病，身上一直带着胰岛素泵。",
        "糖尿病",
        "帮我写一段合唱团音乐会节目单上的个人简介。",
        "这个周末想出去走走，有什么好玩的？",
    ),
    (
        "I have type 1 diabetes and I wear an insulin pump.",
        "diabetes",
        "Walk me through installing Python and a code editor on my new laptop.",
        "Any ideas for a fun day out this weekend?",
    ),
]


@pytest.mark.parametrize(("turn", "word", "passing", "bears"), MISFIRE)
def test_a_cue_word_used_in_passing_opens_no_private_memory(
    mem_read: Memory, clock: FixedClock, turn: str, word: str, passing: str, bears: str
) -> None:
    """ "Walk" and "音乐会" are outing cues; here they are not what the request is about."""
    say(mem_read, clock, [turn], "s1")
    assert word not in mem_read.context(passing, user="u", budget_tokens=800).text.lower()
    assert word in mem_read.context(bears, user="u", budget_tokens=300).text.lower()


VENUE = [
    ("我坐轮椅，去的地方得有无障碍通道，不能有台阶。", "轮椅", "帮我找个安静的地方，明天下午去办公。"),
    (
        "I use a wheelchair, so anywhere I go needs step-free access.",
        "wheelchair",
        "Find me a nice café to work from tomorrow.",
    ),
]


@pytest.mark.parametrize(("turn", "word", "request_"), VENUE)
def test_choosing_a_place_bears_on_accessibility(
    mem_read: Memory, clock: FixedClock, turn: str, word: str, request_: str
) -> None:
    say(mem_read, clock, [turn], "s1")
    ctx = mem_read.context(request_, user="u", budget_tokens=300)
    assert word in ctx.text.lower(), ctx.text


IDENTITY = [
    (
        "我住厦门，从家骑车到环岛路也就十分钟，傍晚经常去吹吹风。",
        "我写代码都用 pytest 跑测试，覆盖率要求八成以上，每个函数都要有单元测试。",
        "厦门",
        "帮我给这个函数写几个单元测试。",
    ),
    (
        "I live in Boise, which surprises people, but I love it here.",
        "I write all my tests with pytest and I want every parser function covered by unit tests.",
        "Boise",
        "Write unit tests for this parser.",
    ),
]


@pytest.mark.parametrize(("home", "other", "word", "request_"), IDENTITY)
def test_identity_is_in_the_profile_whatever_the_request(
    mem_read: Memory, clock: FixedClock, home: str, other: str, word: str, request_: str
) -> None:
    """Where the user lives, said only inside an episode the request's search does not
    reach, is still shown: who the user is belongs to every block (within the profile's share)."""
    say(mem_read, clock, [home], "s1")
    say(mem_read, clock, [other], "s2")
    ctx = mem_read.context(request_, user="u", budget_tokens=200)
    assert ctx.text.count(word) == 1, ctx.text
    assert ctx.tokens <= 200


PERSONAL = [
    (
        "我家豆豆六岁了，这几个月迷恐龙迷得不行，墙上全是她画的霸王龙。",
        "恐龙",
        ["tidebook 前端是 Flutter，后端用 Supabase。"],
        "帮我把这几个改动整理成提交信息：加了离线缓存，修了登录后闪退。",  # "几个" is shared
    ),
    (
        "My daughter Mia is six and obsessed with dinosaurs, she changes her favourite one every week.",
        "dinosaurs",
        ["tidebook is a Flutter app with a Supabase backend."],
        "Turn these changes into a commit message: added an offline cache, fixed a crash after login.",
        # "changes" is shared
    ),
]


@pytest.mark.parametrize(("personal", "word", "project_turns", "request_"), PERSONAL)
def test_a_personal_episode_needs_the_requests_words_to_enter_a_project_task(
    mem_read: Memory, clock: FixedClock, personal: str, word: str, project_turns: list[str], request_: str
) -> None:
    say(mem_read, clock, [personal], "s1")
    say(mem_read, clock, project_turns, "p1", "tidebook")
    ctx = mem_read.context(request_, user="u", project="tidebook", budget_tokens=800)
    assert word not in ctx.text, ctx.text
    assert "Flutter" in ctx.text
    # outside the project the same episode is reachable by its own words
    assert word in mem_read.context(word, user="u", budget_tokens=800).text


WIDEN = [
    (
        [
            "我胃不太好，辣的一口都碰不了，上次同事请吃酸菜鱼，我回家疼了一晚上。",
            "我家楼下新开了一家独立书店，周末常去那儿坐一下午看书。",
        ],
        "晚上要请两个客户吃饭，去什么样的馆子比较好？",
        ["酸菜鱼", "书店"],
    ),
    (
        [
            "Mushrooms are the devil's food as far as I'm concerned. Keep them away from anything you suggest to me.",
            "Four years off the drink this September, so pubs are grand but I'm on the soda water.",
        ],
        "Recommend a pub for a celebration dinner with the team.",
        ["Mushrooms", "soda water"],
    ),
]


@pytest.mark.parametrize(("turns", "request_", "words"), WIDEN)
def test_room_left_shows_the_turns_compression_left_out_of_a_shown_episode(
    mem: Memory, clock: FixedClock, turns: list[str], request_: str, words: list[str]
) -> None:
    say(mem, clock, turns, "s1")
    (episode,) = [r for r in mem.records(user="u") if r.type is MemoryType.EPISODE]
    assert any(w not in episode.content for w in words)  # compression left a turn out
    ctx = mem.context(request_, user="u", budget_tokens=400)
    assert any(i.memory_id == episode.id for i in ctx.items), ctx.text
    for w in words:
        assert ctx.text.count(w) == 1, ctx.text  # there, and once
    assert ctx.tokens <= 400
