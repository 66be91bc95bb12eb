"""``MemquillStore`` against LangGraph's own ``InMemoryStore`` and inside a real graph."""

from __future__ import annotations

from typing import Any, TypedDict

import anyio
import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, MatchCondition
from langgraph.store.memory import InMemoryStore

from memquill import Memory
from memquill.errors import ValidationError
from memquill.integrations.langgraph import MemquillStore
from memquill.integrations.namespaces import NamespaceMap

PUTS: list[tuple[tuple[str, ...], str, dict[str, Any]]] = [
    (("memories", "alice"), "m1", {"content": "Alice prefers green tea", "kind": "pref", "n": 3}),
    (("memories", "alice"), "m2", {"content": "Alice lives in Berlin", "kind": "fact", "n": 1}),
    (("memories", "alice", "work"), "w1", {"content": "Alice works at ACME", "kind": "fact", "n": 5}),
    (("memories", "alice2"), "x", {"content": "not alice", "kind": "pref", "n": 2}),
    (("memories", "bob"), "m1", {"content": "鲍勃喜欢喝咖啡", "kind": "pref", "n": 4}),
    (("docs",), "d1", {"title": "spec", "n": 2.5, "nested": {"a": [1, 2], "b": None}, "ok": True}),
    (("docs", "v2"), "d2", {"title": "规格", "n": -1, "tags": ["x", "y"]}),
]


@pytest.fixture
def stores(mem: Memory) -> tuple[MemquillStore, InMemoryStore]:
    ours, ref = MemquillStore(mem), InMemoryStore()
    for st in (ours, ref):
        for ns, key, value in PUTS:
            st.put(ns, key, value)
    return ours, ref


def found(items: list[Any]) -> list[tuple[tuple[str, ...], str, dict[str, Any]]]:
    return sorted((i.namespace, i.key, i.value) for i in items)


SEARCHES: list[dict[str, Any]] = [
    {"namespace_prefix": ()},
    {"namespace_prefix": ("memories",)},
    {"namespace_prefix": ("memories", "alice")},  # never ("memories", "alice2")
    {"namespace_prefix": ("memories", "alice", "work")},
    {"namespace_prefix": ("docs",)},
    {"namespace_prefix": ("nothing",)},
    {"namespace_prefix": ("memories",), "filter": {"kind": "pref"}},
    {"namespace_prefix": (), "filter": {"n": {"$gte": 2}, "kind": {"$ne": "fact"}}},
    {"namespace_prefix": ("docs",), "filter": {"nested": {"a": [1, 2]}}},
]
LISTINGS: list[dict[str, Any]] = [
    {},
    {"prefix": ("memories",)},
    {"prefix": ("memories",), "max_depth": 2},
    {"max_depth": 1},
    {"suffix": ("work",)},
    {"prefix": ("memories", "*")},
    {"limit": 2, "offset": 1},
]


@pytest.mark.parametrize("query", SEARCHES)
def test_search_selects_what_in_memory_store_selects(
    stores: tuple[MemquillStore, InMemoryStore], query: dict[str, Any]
) -> None:
    ours, ref = stores
    prefix = query["namespace_prefix"]
    kw = {k: v for k, v in query.items() if k != "namespace_prefix"}
    assert found(ours.search(prefix, limit=100, **kw)) == found(ref.search(prefix, limit=100, **kw))


@pytest.mark.parametrize("listing", LISTINGS)
def test_list_namespaces_like_in_memory_store(
    stores: tuple[MemquillStore, InMemoryStore], listing: dict[str, Any]
) -> None:
    ours, ref = stores
    assert ours.list_namespaces(**listing) == ref.list_namespaces(**listing)
    cond = [MatchCondition("prefix", ("docs",))]
    assert ours.batch([ours_op := _list_op(cond)]) == ref.batch([ours_op])


def _list_op(cond: list[MatchCondition]) -> Any:
    from langgraph.store.base import ListNamespacesOp

    return ListNamespacesOp(match_conditions=tuple(cond), max_depth=None, limit=10, offset=0)


def test_get_put_delete_round_trip_exactly(stores: tuple[MemquillStore, InMemoryStore]) -> None:
    ours, ref = stores
    for ns, key, value in PUTS:
        got = ours.get(ns, key)
        assert got is not None and got.value == value and got.namespace == ns and got.key == key
    for st in (ours, ref):
        st.put(("memories", "alice"), "m2", {"content": "Alice moved to Munich", "n": 1})
        st.delete(("memories", "bob"), "m1")
        st.delete(("memories", "bob"), "never-there")
    assert ours.get(("memories", "alice"), "m2").value == {"content": "Alice moved to Munich", "n": 1}  # type: ignore[union-attr]
    assert ours.get(("memories", "bob"), "m1") is None
    # an emptied namespace is no longer listed (as in LangGraph's PostgresStore; InMemoryStore
    # keeps the empty dict it once created)
    assert ours.list_namespaces() == [ns for ns in ref.list_namespaces() if ns != ("memories", "bob")]
    assert found(ours.search(())) == found(ref.search((), limit=10))
    assert [r.op.value for r in ours.history(("memories", "alice"), "m2")] == ["add", "update"]


def test_pages_cover_everything_once(stores: tuple[MemquillStore, InMemoryStore]) -> None:
    ours, _ = stores
    pages = [ours.search((), limit=3, offset=o) for o in (0, 3, 6)]
    keys = [(i.namespace, i.key) for page in pages for i in page]
    assert len(keys) == len(set(keys)) == len(PUTS)


@pytest.mark.parametrize(
    ("query", "best"),
    [("which tea does she drink", ("memories", "alice", "m1")), ("喝咖啡", ("memories", "bob", "m1"))],
)
def test_query_search_uses_hybrid_retrieval_inside_the_prefix(
    stores: tuple[MemquillStore, InMemoryStore], query: str, best: tuple[str, str, str]
) -> None:
    ours, _ = stores
    prefix = best[:2]
    hits = ours.search(prefix, query=query, limit=3)
    assert (hits[0].namespace, hits[0].key) == (best[:2], best[2])
    assert hits[0].score is not None and all(h.namespace[: len(prefix)] == prefix for h in hits)


@pytest.mark.parametrize(
    ("content", "query", "word"),
    [
        ("The user is allergic to peanuts", "peanut allergy", "peanut"),
        ("用户对花生过敏", "花生过敏", "花生"),
    ],
)
def test_content_goes_through_the_write_path(mem: Memory, content: str, query: str, word: str) -> None:
    store = MemquillStore(mem)
    store.put(("memories", "carol"), "a1", {"content": content})
    # every memquill reader of carol sees the distilled memory; the raw item stays private
    hits = mem.search(query, user="carol")
    assert hits and word in hits[0].memory.content
    assert all("langgraph" not in h.memory.attributes for h in hits)
    store.delete(("memories", "carol"), "a1")  # delete is a forget, derived memories included
    assert mem.search(query, user="carol") == []
    assert all(
        r.status.value == "deleted" and word not in r.content
        for r in mem.records(statuses=["deleted"], user="carol", agent="langgraph")
    )


def test_namespace_conventions(mem: Memory) -> None:
    user_first = MemquillStore(mem, namespaces=NamespaceMap(template=("{user}", "{project}")))
    user_first.put(("dave", "web"), "k", {"content": "Remember that this project uses pnpm"})
    assert user_first.get(("dave", "web"), "k") is not None
    assert mem.search("pnpm", user="dave", project="web")
    assert mem.search("pnpm", user="dave", project="admin") == []  # project-bound
    with pytest.raises(ValidationError):
        NamespaceMap(template=("memories",))


class State(TypedDict):
    user: str
    message: str
    recalled: list[str]


def remember_then_recall(state: State, *, store: BaseStore) -> dict[str, Any]:
    ns = ("memories", state["user"])
    store.put(ns, f"k{len(store.search(ns, limit=100))}", {"content": state["message"]})
    return {"recalled": [i.value["content"] for i in store.search(ns, query=state["message"], limit=2)]}


def build(store: BaseStore) -> Any:
    g = StateGraph(State)
    g.add_node("memory", remember_then_recall)
    g.add_edge(START, "memory")
    g.add_edge("memory", END)
    return g.compile(store=store)


def test_a_real_graph_sync_and_async(mem: Memory) -> None:
    graph = build(MemquillStore(mem))
    out = graph.invoke({"user": "erin", "message": "I prefer aisle seats on flights", "recalled": []})
    assert out["recalled"][0] == "I prefer aisle seats on flights"

    async def run() -> Any:
        return await graph.ainvoke({"user": "erin", "message": "我喜欢靠窗的座位", "recalled": []})

    out = anyio.run(run)
    assert "我喜欢靠窗的座位" in out["recalled"]
    assert len(MemquillStore(mem).search(("memories", "erin"))) == 2
    assert MemquillStore(mem).search(("memories", "frank")) == []


def test_ttl_expires_items(mem: Memory) -> None:
    store = MemquillStore(mem)
    store.put(("memories", "gina"), "tmp", {"note": "release window today"}, ttl=30)
    store.put(("memories", "gina"), "keep", {"note": "prefers email"})
    assert store.get(("memories", "gina"), "tmp") is not None
    mem.clock.advance(minutes=31)  # type: ignore[attr-defined]
    assert store.get(("memories", "gina"), "tmp") is None
    assert [i.key for i in store.search(("memories", "gina"))] == ["keep"]


@pytest.mark.parametrize("content", ["Remember that my PIN hint is blue", "记住我的密码提示是蓝色"])
def test_forget_user_leaves_nothing_behind(mem: Memory, content: str) -> None:
    store = MemquillStore(mem)
    store.put(("memories", "hana"), "p", {"content": content})
    store.put(("memories", "ivan"), "p", {"content": content})
    erased = store.forget_user("hana")
    assert erased["events"] >= 2 and erased["memories"] >= 2
    assert store.list_namespaces() == [("memories", "ivan")]
    assert store.get(("memories", "hana"), "p") is None
    blocks = mem.blocks(tenant="default", user="__langgraph__", agent="langgraph")
    assert not any("hana" in b.content or "hana" in b.name for b in blocks)
    assert mem.records(statuses=None, user="hana") == []
    assert store.get(("memories", "ivan"), "p") is not None
