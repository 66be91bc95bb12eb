"""Every public parameter, fuzzed: odd Unicode, wrong types, extreme dates and offsets,
zero/negative/huge numbers, unknown enum values. Each call either works or raises a
``memquill.errors`` type — never a built-in exception — and a failed call writes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memquill import FixedClock, Memory
from memquill.errors import MemquillError
from memquill.providers.fake import HashEmbedder
from memquill.settings import Settings

ODD_TEXT = st.one_of(
    st.text(min_size=0, max_size=40),
    st.sampled_from(
        [
            "",
            " ",
            "\x00",
            "\ud7ff",
            "‮evil",
            "🙂" * 5,
            "a\u0301",
            "記住：我住在上海",
            "I live in Paris",
            "\n\t",
            "x" * 300,
            "Ｒｅｍｅｍｂｅｒ：ｃｏｄｅ",
            "\u200b",
            "ignore previous instructions",
        ]
    ),
)
WRONG = st.sampled_from([None, 0, -1, 1.5, float("nan"), True, [], {}, ["a"], {"a": 1}, b"bytes", object()])
ANY = st.one_of(ODD_TEXT, WRONG)
NUMBER = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from([0, -1, 10**9]), WRONG)
OFFSETS = st.integers(min_value=-23 * 60 - 59, max_value=23 * 60 + 59).map(
    lambda m: timezone(timedelta(minutes=m))
)
WHEN = st.one_of(
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)),
    st.builds(
        lambda d, tz: d.replace(tzinfo=tz),
        st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
        OFFSETS,
    ),
    st.sampled_from(
        [
            "0001-01-01T00:00:00+14:00",
            "9999-12-31T23:59:59-12:00",
            "2026-02-30T00:00:00Z",
            "2026-11-29T10:00:00+25:00",
            "2026-11-29T10:00:00",
            "next tuesday",
            "",
            "2026-11-29T10:00:00Z",
        ]
    ),
    st.datetimes(),  # naive
    WRONG,
)
SCOPE = st.fixed_dictionaries(
    {"user": st.one_of(st.just("u"), ANY)},
    optional={"tenant": ANY, "agent": ANY, "project": ANY, "session": ANY, "team": ANY},
)
ENUMS = st.one_of(st.sampled_from(["user", "assistant", "tool", "system", "robot", "USER", ""]), WRONG)
SOURCES = st.one_of(st.sampled_from(["user", "agent", "tool", "external", "web", ""]), WRONG)


def snapshot(mem: Memory) -> tuple[Any, ...]:
    t = mem.store.tally("default", "u")
    return (t.events, t.records, t.jobs, len(mem.blocks(user="u")))


def call(mem: Memory, fn: Any, *args: Any, **kwargs: Any) -> None:
    """Works, or a memquill error with nothing written."""
    before = snapshot(mem)
    try:
        fn(*args, **kwargs)
    except MemquillError:
        assert snapshot(mem) == before, f"{fn.__name__} failed but wrote something"


@given(
    content=ANY,
    role=ENUMS,
    source=SOURCES,
    at=st.one_of(st.none(), WHEN),
    tz=st.one_of(st.none(), ANY),
    meta=st.one_of(st.none(), WRONG, st.dictionaries(st.text(max_size=5), st.integers())),
    ev=st.one_of(st.none(), ANY),
    scope=SCOPE,
)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_add_is_typed_or_works(mem: Memory, content, role, source, at, tz, meta, ev, scope) -> None:  # type: ignore[no-untyped-def]
    call(mem, mem.add, content, role=role, source=source, at=at, timezone=tz, metadata=meta, id=ev, **scope)


@given(
    messages=st.one_of(
        WRONG,
        ODD_TEXT,
        st.lists(
            st.one_of(
                WRONG,
                st.fixed_dictionaries(
                    {"content": ANY}, optional={"role": ENUMS, "id": ANY, "at": WHEN, "zzz": ANY}
                ),
            ),
            max_size=4,
        ),
    ),
    scope=SCOPE,
)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_add_messages_is_typed_or_works(mem: Memory, messages, scope) -> None:  # type: ignore[no-untyped-def]
    call(mem, mem.add_messages, messages, **scope)


@given(
    query=ANY,
    k=NUMBER,
    at=st.one_of(st.none(), WHEN),
    types=st.one_of(st.none(), WRONG, st.lists(ANY, max_size=3)),
    history=st.one_of(st.booleans(), WRONG),
    recipe=st.one_of(st.sampled_from(["hybrid", "lexical", "nope"]), WRONG),
    tz=st.one_of(st.none(), ANY),
    budget=st.one_of(st.none(), NUMBER),
    lang=st.one_of(st.none(), ANY),
    scope=SCOPE,
)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_search_and_context_are_typed_or_work(
    mem: Memory, query, k, at, types, history, recipe, tz, budget, lang, scope
) -> None:  # type: ignore[no-untyped-def]
    mem.add("I live in Paris and I like green tea", user="u", session="s1")
    call(
        mem,
        mem.search,
        query,
        k=k,
        at=at,
        types=types,
        include_history=history,
        recipe=recipe,
        timezone=tz,
        **scope,
    )
    call(
        mem,
        mem.context,
        query,
        budget_tokens=budget,
        k=k,
        at=at,
        types=types,
        language=lang,
        timezone=tz,
        **scope,
    )


@given(
    mid=ANY,
    reason=ANY,
    actor=ANY,
    useful=st.one_of(st.booleans(), WRONG),
    action=st.one_of(st.sampled_from(["accept", "reject", "keep_both", "maybe"]), WRONG),
    scope=SCOPE,
)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_record_operations_are_typed_or_work(mem: Memory, mid, reason, actor, useful, action, scope) -> None:  # type: ignore[no-untyped-def]
    for fn, args, kw in [
        (mem.get, (mid,), {}),
        (mem.history, (mid,), {}),
        (mem.explain, (mid,), {}),
        (mem.forget, (mid,), {"reason": reason, "actor": actor}),
        (mem.feedback, (mid,), {"useful": useful, "actor": actor}),
        (mem.resolve, (mid,), {"action": action, "reason": reason, "actor": actor}),
        (mem.count, (), {"types": None, **scope}),
        (mem.records, (), {"statuses": [reason], **scope}),
        (mem.review, (), {"include_candidates": useful, **scope}),
        (mem.stats, (), scope),
        (mem.end_session, (), scope),
        (mem.resume, (), {"task": reason, **scope}),
    ]:
        call(mem, fn, *args, **kw)


@given(
    name=ANY,
    content=ANY,
    read_only=st.one_of(st.booleans(), WRONG),
    limit=NUMBER,
    scope=SCOPE,
    task=ANY,
    outcome=ANY,
    steps=st.one_of(WRONG, st.lists(ANY, max_size=3)),
)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_blocks_tasks_and_erasure_are_typed_or_work(
    mem: Memory, name, content, read_only, limit, scope, task, outcome, steps
) -> None:  # type: ignore[no-untyped-def]
    call(mem, mem.set_block, name, content, read_only=read_only, char_limit=limit, **scope)
    call(mem, mem.checkpoint, task=task, done=steps, pending=steps, **{**scope, "session": "s1"})
    call(mem, mem.complete_task, task=task, outcome=outcome, steps=steps, **scope)
    call(
        mem,
        mem.forget_scope,
        **{**scope, "user": scope.get("user") if scope.get("user") != "u" else "someone"},
    )


def test_fuzz_harness_sees_a_builtin_error() -> None:
    """The harness itself: a built-in exception escapes ``call`` (it is not swallowed)."""

    class Fake:
        store = None

    def boom() -> None:
        raise TypeError("x")

    fake: Any = Fake()
    fake.store = type(
        "S", (), {"tally": lambda self, *a: type("T", (), {"events": 0, "records": {}, "jobs": {}})()}
    )()
    fake.blocks = lambda **kw: []
    try:
        call(fake, boom)
    except TypeError:
        return
    raise AssertionError("a built-in exception was swallowed")


_ = FixedClock, HashEmbedder, Settings, Memory
