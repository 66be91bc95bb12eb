"""Replaying a store's own log with its own policy reproduces its records exactly, for random
bilingual conversations with session ends, forgets and feedback at random points (live runs
with a worker that keeps up: it drains after every call, as replay does)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memquill import FixedClock, Memory
from memquill.maintain.shadow import fingerprint
from memquill.model import Scope, Status
from memquill.model.query import RecordFilter
from memquill.providers.fake import HashEmbedder
from memquill.settings import Settings

STATEMENTS = [
    "I live in Berlin",
    "I moved to Tokyo",
    "我住在上海",
    "我搬到了北京",
    "I prefer dark mode",
    "我改用浅色主题了",
    "This project uses Python 3.11",
    "我们升级到 Node.js 22 了",
    "记住：我的邮箱是 a@x.com",
    "I don't drink coffee",
    "I like coffee",
    "好的",
    "上周和表妹去苏州看了园林，她在那边做护士",
    "Yesterday I met Sam at the climbing gym and we tried the new overhang wall",
    "我们决定用 PostgreSQL，因为团队更熟悉，不用 MySQL",
    "明天下午三点提醒我给客户回电话",
]
STEP = st.one_of(
    st.tuples(
        st.just("add"),
        st.sampled_from(STATEMENTS),
        st.sampled_from(["u1", "u2"]),
        st.sampled_from([None, "web"]),
        st.sampled_from(["s1", "s2"]),
        st.sampled_from(["user", "assistant"]),
    ),
    st.tuples(st.just("end"), st.sampled_from(["u1", "u2"]), st.sampled_from(["s1", "s2"])),
    st.tuples(st.just("forget"), st.integers(0, 50)),
    st.tuples(st.just("feedback"), st.integers(0, 50), st.booleans()),
)


def prints(mem: Memory) -> list[tuple[object, ...]]:
    recs = [
        r
        for u in ("u1", "u2")
        for r in mem.store.find(RecordFilter(Scope(user=u), statuses=None, owner=True))
    ]
    # an erased memory leaves a tombstone live; a replay never reads its (redacted) evidence
    return sorted((fingerprint(r) for r in recs if r.status is not Status.DELETED), key=repr)


def play(mem: Memory, clock: FixedClock, steps: list[tuple]) -> None:  # type: ignore[type-arg]
    for step in steps:
        clock.advance(minutes=3)
        if step[0] == "add":
            _, text, user, project, session, role = step
            mem.add(text, user=user, project=project, session=session, role=role)
        elif step[0] == "end":
            mem.end_session(user=step[1], session=step[2])
        else:
            # any record, a version in a chain or one held for review included: erasing it is
            # replayed as if its turns were never said
            live = mem.records(user="u1") + mem.records(user="u2")
            if live:
                target = live[step[1] % len(live)]
                if step[0] == "forget":
                    mem.forget(target.id)
                else:
                    mem.feedback(target.id, useful=step[2])
        mem.flush()


@given(steps=st.lists(STEP, min_size=1, max_size=12))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_replay_reproduces_the_live_records(make_store, steps) -> None:  # type: ignore[no-untyped-def]
    clock = FixedClock("2026-11-29T02:00:00Z")
    live = Memory(
        store=make_store(),
        clock=clock,
        embedder=HashEmbedder(),
        settings=Settings(default_timezone="Asia/Shanghai"),
    )
    play(live, clock, steps)
    with tempfile.TemporaryDirectory() as tmp:
        live.replay(into=str(Path(tmp) / "scratch.db"))
        scratch = Memory(str(Path(tmp) / "scratch.db"), embedder=HashEmbedder(), clock=clock)
        try:
            assert prints(scratch) == prints(live)
        finally:
            scratch.close()
