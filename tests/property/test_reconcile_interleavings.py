"""Random interleavings of writes across scopes: never two active records in one
slot + scope + conditions, and a write never changes a record of another scope."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memquill import FixedClock, Memory
from memquill.model import Status
from memquill.providers.fake import HashEmbedder
from memquill.settings import Settings
from memquill.text import norm_value

STATEMENTS = [
    "I live in Berlin",
    "I live in Paris",
    "I moved to Tokyo",
    "我住在上海",
    "我搬到了北京",
    "I prefer dark mode",
    "I switched to light mode",
    "我喜欢深色主题",
    "我改用浅色主题了",
    "This project uses Python 3.11",
    "We upgraded to Python 3.12",
    "项目用的是 Node.js 20",
    "我们升级到 Node.js 22 了",
    "记住：我的邮箱是 a@x.com",
    "记住：我的邮箱是 b@x.com",
    "I don't drink coffee",
    "I like coffee",
    "如果下雨，我就在家办公",
]
WRITE = st.tuples(
    st.sampled_from(STATEMENTS),
    st.sampled_from(["u1", "u2"]),
    st.sampled_from([None, "shop", "admin"]),
    st.sampled_from([None, "s1"]),
    st.sampled_from(["user", "assistant"]),
    st.booleans(),  # flush after this write
)


def slot_of(r) -> tuple:  # type: ignore[no-untyped-def]
    s = r.scope
    return (
        s.tenant,
        s.user,
        s.agent,
        s.project,
        s.session,
        r.subject,
        r.key,
        frozenset(norm_value(c) for c in r.conditions),
    )


@given(writes=st.lists(WRITE, min_size=1, max_size=14))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_interleaved_writes_keep_one_active_per_slot(make_store, writes) -> None:  # type: ignore[no-untyped-def]
    mem = Memory(
        store=make_store(),
        clock=FixedClock("2026-11-29T02:00:00Z"),
        embedder=HashEmbedder(),
        settings=Settings(),
    )
    for i, (text, user, project, session, role, flush) in enumerate(writes):
        if flush:
            mem.flush()  # earlier writes' background work may touch their own scopes
        before = elsewhere(mem, user, project)
        mem.add(text, user=user, project=project, session=session, role=role, id=f"e{i}")
        if flush:
            mem.flush()
        assert elsewhere(mem, user, project) == before, "a write touched a record of another scope"
    mem.flush()
    for user in ("u1", "u2"):
        active = [
            r for r in mem.store.find(_owner(user)) if r.status is Status.ACTIVE and r.type.value != "episode"
        ]
        slots = [slot_of(r) for r in active]
        assert len(slots) == len(set(slots)), "two active records in one slot"


def elsewhere(mem: Memory, user: str, project: str | None) -> dict[str, int]:
    """Revisions of records a write may not touch: other users', other projects'."""
    return {
        r.id: r.revision
        for u in ("u1", "u2")
        for r in mem.store.find(_owner(u))
        if u != user or (r.scope.project is not None and r.scope.project != project)
    }


def _owner(user: str):  # type: ignore[no-untyped-def]
    from memquill.model import Scope
    from memquill.model.query import RecordFilter

    return RecordFilter(Scope(user=user), statuses=None, owner=True)
