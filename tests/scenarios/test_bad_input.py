"""Bad input gets a clear typed error and leaves no half-written state."""

from __future__ import annotations

import pytest

from memquill import Memory, Scope
from memquill.errors import (
    ContentError,
    DuplicateEventError,
    MemquillError,
    NaiveDatetimeError,
    NotFoundError,
    ScopeError,
    ValidationError,
)


def nothing_written(mem: Memory, user: str = "u") -> bool:
    t = mem.store.tally("default", user)
    return t.events == 0 and not t.records and not t.jobs


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"content": "hi there friend", "at": "2026-11-29T10:00:00"}, NaiveDatetimeError),
        ({"content": ""}, ContentError),
        ({"content": "   \n "}, ContentError),
        ({"content": "x" * (32 * 1024 + 1)}, ContentError),
        ({"content": "我喜欢茶", "role": "robot"}, ValidationError),
        ({"content": "我喜欢茶", "source": "web"}, ValidationError),
        ({"content": "我喜欢茶", "timezone": "Mars/Olympus"}, ValidationError),
        # a name too long for a file path: zoneinfo raised OSError (found by the fuzz test)
        ({"content": "I like tea", "timezone": "x" * 300}, ValidationError),
        ({"content": "我喜欢茶", "at": "next tuesday"}, ValidationError),
        ({"content": 42}, ContentError),
        ({"content": "I like tea", "team": "x"}, ScopeError),
        ({"content": "I like tea", "project": ""}, ScopeError),
    ],
)
def test_bad_add_is_typed_and_writes_nothing(mem: Memory, kwargs: dict, error: type) -> None:
    with pytest.raises(error):
        mem.add(user="u", **kwargs)
    assert nothing_written(mem)


def test_naive_datetime_is_accepted_with_timezone(mem: Memory) -> None:
    r = mem.add("我明天去北京", user="u", at="2026-11-29T23:30:00", timezone="Asia/Shanghai")
    event = mem.store.get_events(Scope(user="u"), [r.event_id])[0]
    assert event.occurred_at.isoformat() == "2026-11-29T15:30:00+00:00"


def test_event_ids_are_immutable(mem: Memory) -> None:
    mem.add("I like tea", user="u", id="evt-1")
    with pytest.raises(DuplicateEventError):
        mem.add("I like coffee", user="u", id="evt-1")
    assert mem.store.tally("default", "u").events == 1
    assert not any("coffee" in r.content for r in mem.records(user="u", statuses=None))


def test_add_messages_validates_all_before_writing(mem: Memory) -> None:
    with pytest.raises(NaiveDatetimeError):
        mem.add_messages(
            [{"content": "I like tea"}, {"content": "I like jazz", "at": "2026-01-01T00:00:00"}], user="u"
        )
    assert nothing_written(mem)
    with pytest.raises(ValidationError):
        mem.add_messages([{"content": "I like tea", "colour": "red"}], user="u")
    assert nothing_written(mem)
    results = mem.add_messages(
        [{"content": "I like tea"}, {"content": "我不喝咖啡", "role": "user"}], user="u"
    )
    assert len(results) == 2 and all(r.created for r in results)


def test_unknown_ids_are_not_found(mem: Memory) -> None:
    for call in (mem.get, mem.history, mem.explain, mem.forget, mem.feedback):
        with pytest.raises(NotFoundError):
            call("mem-does-not-exist")


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"query": ""}, ValidationError),
        ({"query": "x", "k": 0}, ValidationError),
        ({"query": "x", "types": ["opinion"]}, ValidationError),
        ({"query": "x", "recipe": "magic"}, ValidationError),
    ],
)
def test_bad_search_is_typed(mem: Memory, kwargs: dict, error: type) -> None:
    with pytest.raises(error):
        mem.search(user="u", **kwargs)


def test_every_error_is_a_memquill_error() -> None:
    import memquill.errors as errors

    for name in dir(errors):
        obj = getattr(errors, name)
        if isinstance(obj, type) and issubclass(obj, Exception) and obj.__module__ == errors.__name__:
            assert issubclass(obj, MemquillError)


def test_data_survives_reopening_the_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = str(tmp_path / "m.db")
    with Memory(path, embedder="hash") as mem:
        rid = mem.add("记住：我的邮箱是 a@b.com", user="u").written[0]
        mem.add("I like tea", user="u", session="s")
    with Memory(path, embedder="hash") as mem:
        assert mem.get(rid).value == "a@b.com"
        assert mem.store.job_counts()["queued"] == 2
        mem.flush()
        assert mem.search("邮箱", user="u")[0].memory.id == rid


@pytest.mark.parametrize("name", ["persona", "用户画像"])
def test_a_block_limit_over_the_maximum_is_a_typed_error(mem: Memory, name: str) -> None:
    """Found by the public-API fuzzer: 100,001 passed the parameter check and failed inside
    the model with pydantic's own error."""
    with pytest.raises(ValidationError):
        mem.set_block(name, "", char_limit=100_001, user="u")
    assert mem.set_block(name, "x", char_limit=100_000, user="u").char_limit == 100_000
